import { readFileSync } from 'node:fs';
import { RequestMethod, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { HttpsOptions } from '@nestjs/common/interfaces/external/https-options.interface.js';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { generate as generateCertificate } from 'selfsigned';
import { AppModule } from './app.module.js';
import { CredentialsBeforeBody } from './auth/credentials-before-body.js';
import type { Request, Response } from 'express';
import { ApiError } from './common/errors/api-error.js';
import { ApiExceptionFilter, sendEnvelope } from './common/errors/api-exception.filter.js';
import { createValidationPipe } from './common/errors/validation.js';
import { ApiExpressAdapter } from './common/http/http-result.js';
import { answerClientErrorsInEnvelope } from './common/http/client-error.js';
import { boundConnections, HEADERS_TIMEOUT_MS } from './common/http/connection-limits.js';
import { httpsOnly } from './common/http/https-only.middleware.js';
import { noSniff } from './common/http/no-sniff.middleware.js';
import { requestId } from './common/http/request-id.middleware.js';
import { Settings } from './config/settings.js';
import { OpenApiDocument } from './openapi/openapi-document.provider.js';
import { MetricsService } from './health/metrics.service.js';
import { precompressedAssets } from './web-console/precompressed-assets.js';

export const API_PREFIX = 'api/v1';
export const INTERNAL_PREFIX = 'internal/v1';

/**
 * Builds and initializes the application with its whole HTTP pipeline; `main.ts` and the
 * tests share it.
 */
export async function createApp(
  settings: Settings,
  options: { extraModules?: Type[] } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(settings, options.extraModules),
    new ApiExpressAdapter(),
    {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
      httpsOptions: await tlsOptions(settings),
    },
  );
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // No ETags: Express would hash every response body to make one (a 1,000-result response is
  // 300 KB), and no client of this API sends If-None-Match.
  app.set('etag', false);
  app.set('trust proxy', settings.trustProxy);

  // Order matters: the request id first (everything logs it; every response carries it and
  // nosniff), HTTPS before anything that authenticates or counts, one Authorization header. No
  // body is read here: the access guard admits the request first, then `ReadBodyInterceptor`
  // reads it within the memory budget.
  app.use(requestId);
  app.use(noSniff);
  app.use(app.get(MetricsService).middleware);
  app.use(httpsOnly);
  if (settings.servesHttpApi) app.use(app.get(CredentialsBeforeBody).middleware);
  // Before the console's static files (registered at init), which then send the chosen copy.
  app.use(precompressedAssets());

  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      'healthz',
      'readyz',
      'metrics',
      { path: `${INTERNAL_PREFIX}/{*path}`, method: RequestMethod.ALL },
    ],
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  await app.init();
  answerClientErrorsInEnvelope(app.getHttpServer());
  keepIdleConnectionsOpen(app.getHttpServer());
  boundConnections(app.getHttpServer(), settings);
  if (settings.servesHttpApi) app.get(OpenApiDocument).build(app);
  // Nest answers unknown paths under the prefix; this catches every other path (after init,
  // so it sits behind all routes).
  app.use(notFound);
  return app;
}

/**
 * How long an idle keep-alive connection stays open. Node closes them after 5 s, while a proxy
 * in front (ingress-nginx keeps upstream connections 60 s, AWS ALB 60 s) may send the next
 * request on one just as it closes, and answer the client 502: the service must outlast the
 * proxy. (The time a request's headers may take is `HEADERS_TIMEOUT_MS`, counted from its
 * first byte, not from the end of the previous request.)
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

function keepIdleConnectionsOpen(server: { keepAliveTimeout: number }): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
}

function notFound(_req: Request, res: Response): void {
  const error = ApiError.notFound();
  sendEnvelope(res, error.getStatus(), error.toEnvelope());
}

/** The TLS options; a handshake must end within `HEADERS_TIMEOUT_MS` (Node's default: 120 s). */
async function tlsOptions(
  settings: Settings,
): Promise<(HttpsOptions & { handshakeTimeout: number }) | undefined> {
  const handshakeTimeout = HEADERS_TIMEOUT_MS;
  if (settings.tlsCertFile !== null && settings.tlsKeyFile !== null) {
    return {
      cert: readFileSync(settings.tlsCertFile),
      key: readFileSync(settings.tlsKeyFile),
      handshakeTimeout,
    };
  }
  if (!settings.tlsSelfSigned) return undefined;
  const pems = await generateCertificate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private, handshakeTimeout };
}
