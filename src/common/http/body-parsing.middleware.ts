import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { fingerprintOf } from './fingerprint.js';
import { nestsDeeperThan, tooDeep, valueNestsDeeperThan } from './json-depth.js';
import { mayHoldBadText } from './text-checks.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const JSON_TYPE = 'application/json';
const XML_TYPES = ['application/xml', 'text/xml'];

/**
 * The idempotency fingerprint is taken over the body as sent, so it is taken here, where the
 * raw bytes are (and only when the request carries an `Idempotency-Key`): a request does not
 * keep a second copy of a body of up to 10 MiB while it runs.
 */
const keepRawBody = (req: Request, _res: Response, buffer: Buffer) => {
  if (req.get('idempotency-key') !== undefined) req.fingerprint = fingerprintOf(req, buffer);
};
const parseJson = express.json({
  limit: MAX_BODY_BYTES,
  type: JSON_TYPE,
  strict: false,
  verify: (req: Request, res: Response, buffer: Buffer, encoding: string) => {
    // Bytes of another encoding than UTF-8 are checked once parsed (rare: UTF-16 and UTF-32).
    if (encoding !== 'utf-8') req.bodyNeedsDepthCheck = true;
    else if (nestsDeeperThan(buffer)) throw tooDeep();
    keepRawBody(req, res, buffer);
    req.bodyMayHoldBadText = mayHoldBadText(buffer, encoding);
  },
});

/** Parses JSON, refusing (400) a body nested deeper than CONTRACT §1 allows. */
const parseJsonNotTooDeep: RequestHandler = (req, res, next) =>
  parseJson(req, res, (error?: unknown) => {
    if (error === undefined && req.bodyNeedsDepthCheck && valueNestsDeeperThan(req.body)) {
      return next(tooDeep());
    }
    next(error);
  });
const parseXml = express.text({ limit: MAX_BODY_BYTES, type: XML_TYPES, verify: keepRawBody });

function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > 0;
  return req.get('transfer-encoding') !== undefined;
}

/**
 * Parses request bodies: JSON everywhere, XML only on the paths of `xmlRoutes` (the routes
 * marked `@AcceptsXml()`, learned once the application is initialized). A body of any other
 * type is refused with 415 before it is read; size and syntax errors are turned into the
 * envelope by the exception filter.
 */
export function bodyParsing(xmlRoutes: ReadonlySet<string>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (req.is(JSON_TYPE)) return parseJsonNotTooDeep(req, res, next);
    if (xmlRoutes.has(req.path) && req.is(XML_TYPES)) return parseXml(req, res, next);
    next(
      new ApiError(
        415,
        ErrorCode.UnsupportedMediaType,
        `Send the body as ${JSON_TYPE}${xmlRoutes.has(req.path) ? ' or application/xml' : ''}.`,
      ),
    );
  };
}
