import express, { type Request, type RequestHandler, type Response } from 'express';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { listsOverflowError } from './body-lists.js';
import { fingerprintOf } from './fingerprint.js';
import { listsOverflow, nestsDeeperThan, tooDeep, valueNestsDeeperThan } from './json-depth.js';
import { mayHoldBadText } from './text-checks.js';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * What reading and parsing a body costs per byte, beside what its handler then builds, measured
 * with the production heap flags: 10 MiB of JSON numbers or tiny objects (`[0,0,…]`,
 * `[{"automation_id":"x","status":"passed"},…]`) take 40 to 50 MB of heap and about as much
 * again while parsing; a valid 10 MiB batch of 5,000 results about 100 MB to store. A JUnit
 * report is parsed as it is walked: 10 MiB take about 80 MB to store.
 */
const JSON_COST_PER_BYTE = 16;
const XML_COST_PER_BYTE = 8;

const JSON_TYPE = 'application/json';
const XML_TYPES = ['application/xml', 'text/xml'];

/** How a request's body is read: as JSON, as XML (on routes marked `@AcceptsXml()`), or not. */
export type BodyKind = 'json' | 'xml';

/** Whether the request carries a body (of a length over 0, or chunked). */
export function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > 0;
  return req.get('transfer-encoding') !== undefined;
}

/** Whether the body is sent compressed: its parsed size is then unknown until it is read. */
export function isCompressed(req: Request): boolean {
  const encoding = req.get('content-encoding');
  return encoding !== undefined && encoding.trim().toLowerCase() !== 'identity';
}

/**
 * How the body of a request will be read: 415 for a type the route does not take, 413 for a
 * declared length over 10 MiB (refused without waiting for the memory budget).
 */
export function bodyKind(req: Request, acceptsXml: boolean): BodyKind {
  if (Number(req.get('content-length')) > MAX_BODY_BYTES) {
    throw new ApiError(413, ErrorCode.PayloadTooLarge, 'The request body is too large.', {
      limit: MAX_BODY_BYTES,
    });
  }
  if (req.is(JSON_TYPE)) return 'json';
  if (acceptsXml && req.is(XML_TYPES)) return 'xml';
  throw new ApiError(
    415,
    ErrorCode.UnsupportedMediaType,
    `Send the body as ${JSON_TYPE}${acceptsXml ? ' or application/xml' : ''}.`,
  );
}

/**
 * What the body will cost in memory once read and parsed, known before a byte of it is read:
 * its declared length times its kind's cost, or the largest body's cost when the length is not
 * known (chunked) or the body is compressed (10 KB of gzip can inflate to 10 MiB).
 */
export function bodyCost(req: Request, kind: BodyKind): number {
  const length = Number(req.get('content-length'));
  const bytes =
    !isCompressed(req) && length > 0 ? Math.min(length, MAX_BODY_BYTES) : MAX_BODY_BYTES;
  return bytes * (kind === 'xml' ? XML_COST_PER_BYTE : JSON_COST_PER_BYTE);
}

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
  type: () => true,
  strict: false,
  verify: (req: Request, res: Response, buffer: Buffer, encoding: string) => {
    // Bytes of another encoding than UTF-8 are checked once parsed (rare: UTF-16 and UTF-32).
    if (encoding !== 'utf-8') req.bodyNeedsDepthCheck = true;
    else if (req.bodyLists) {
      // One pass over the bytes for the depth and the lists.
      const { items, containers, report } = req.bodyLists;
      const overflow = listsOverflow(buffer, items, containers, report);
      if (overflow === 'deep') throw tooDeep();
      if (overflow !== null) throw listsOverflowError(req.bodyLists, overflow);
    } else if (nestsDeeperThan(buffer)) throw tooDeep();
    keepRawBody(req, res, buffer);
    req.bodyMayHoldBadText = mayHoldBadText(buffer, encoding);
  },
});
const parseXml = express.text({ limit: MAX_BODY_BYTES, type: () => true, verify: keepRawBody });

/**
 * A compressed body's errors in the envelope: one that inflates past the limit says that the
 * limit is of the inflated body and where inflating stopped (the bytes sent may be far under
 * it); one that does not inflate (zlib's `Z_DATA_ERROR`) is a 400 naming the body, not a 500.
 */
function compressedBodyError(req: Request, error: unknown): ApiError | undefined {
  if (!isCompressed(req)) return undefined;
  const { type, received, code } = error as { type?: unknown; received?: unknown; code?: unknown };
  const encoding = req.get('content-encoding')?.trim();
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return ApiError.invalidField(
      'body',
      `The request body is not valid ${encoding} data (${code}).`,
    );
  }
  if (type !== 'entity.too.large') return undefined;
  const sent = Number(req.get('content-length'));
  const inflated = typeof received === 'number' ? received : MAX_BODY_BYTES + 1;
  return new ApiError(
    413,
    ErrorCode.PayloadTooLarge,
    `The request body inflates to more than ${MAX_BODY_BYTES} bytes (10 MiB), the limit, which applies to the inflated body: inflating stopped at ${inflated} bytes${sent > 0 ? `, from ${sent} bytes sent ${encoding}` : ''}. Send it in several calls.`,
    { limit: MAX_BODY_BYTES },
  );
}

/**
 * Reads and parses the body of `kind` into `req.body`: JSON refused (400) when nested deeper
 * than CONTRACT §1 allows, or (413) when its lists outgrow the route's `@ListsInBodyAtMost`; size and syntax errors are turned into the envelope by
 * the exception filter.
 */
export function readBody(req: Request, res: Response, kind: BodyKind): Promise<void> {
  const parse: RequestHandler = kind === 'xml' ? parseXml : parseJson;
  return new Promise((resolve, reject) =>
    parse(req, res, (error?: unknown) => {
      if (error !== undefined) return reject(compressedBodyError(req, error) ?? error);
      if (req.bodyNeedsDepthCheck && valueNestsDeeperThan(req.body)) return reject(tooDeep());
      resolve();
    }),
  );
}
