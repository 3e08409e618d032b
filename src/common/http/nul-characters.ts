import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error.js';

const NUL = '\u0000';
/** How JSON writes a NUL character (it cannot appear raw in a JSON string). */
const ESCAPED_NUL = Buffer.from('\\u0000');

/** Whether a raw JSON body may hold a NUL character (`\u0000`); false means it cannot. */
export function mayHoldNul(body: Buffer): boolean {
  return body.includes(ESCAPED_NUL);
}

/**
 * The field of a parsed JSON value that holds a string with a NUL character, or null: `name`,
 * `results[3].message`; a string directly in a list is reported as the list (`defects`).
 */
export function nulField(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') {
        if (item.includes(NUL)) return path || 'body';
      } else {
        const found = nulField(item, `${path}[${i}]`);
        if (found !== null) return found;
      }
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (typeof item === 'string') {
        if (item.includes(NUL)) return field;
      } else {
        const found = nulField(item, field);
        if (found !== null) return found;
      }
    }
  } else if (typeof value === 'string' && value.includes(NUL)) {
    return path || 'body';
  }
  return null;
}

/**
 * PostgreSQL's text cannot hold a NUL character (U+0000): a string with one, in the query or
 * in a JSON body, is a 400 naming its field here, before any handler passes it to the
 * database (which would fail the statement, a 500). Bodies are walked only when their raw
 * bytes hold an escaped NUL, which the body parser notes.
 */
export function refuseNulCharacters(req: Request, _res: Response, next: NextFunction): void {
  for (const [name, value] of Object.entries(req.query)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.includes(NUL))) {
      return next(nulError(name));
    }
  }
  if (req.bodyMayHoldNul) {
    const field = nulField(req.body);
    if (field !== null) return next(nulError(field));
  }
  next();
}

function nulError(field: string): ApiError {
  return ApiError.invalidField(field, `${field} must not contain NUL characters`);
}
