import { Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { Settings } from '../config/settings.js';
import { loggedUrl } from './logged-url.js';

/** Request headers worth logging; everything else (Authorization above all) is left out. */
const LOGGED_HEADERS = ['user-agent', 'content-type', 'content-length', 'x-forwarded-for'];
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [Settings],
      useFactory: (settings: Settings) => ({
        pinoHttp: {
          level: settings.logLevel,
          genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
          autoLogging: { ignore: (req: IncomingMessage) => QUIET_PATHS.has(req.url ?? '') },
          // Defence in depth: even if a header slipped into a log line, it is censored.
          redact: {
            paths: [
              'req.headers.authorization',
              'req.headers.cookie',
              '*.secret',
              '*.key',
              '*.token',
            ],
            censor: '[redacted]',
          },
          serializers: {
            req: (req: IncomingMessage & { id?: string; raw?: IncomingMessage }) => {
              const raw = req.raw ?? req;
              return {
                id: req.id,
                method: raw.method,
                url: loggedUrl(raw.url),
                headers: Object.fromEntries(
                  LOGGED_HEADERS.filter((name) => raw.headers[name] !== undefined).map((name) => [
                    name,
                    raw.headers[name],
                  ]),
                ),
              };
            },
            res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
          },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
