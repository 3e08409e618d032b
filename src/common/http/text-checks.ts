import type { Request } from 'express';
import { ApiError } from '../errors/api-error.js';
import { cutText } from '../text.js';

/**
 * How JSON writes the characters PostgreSQL text cannot hold: NUL (`\u0000`) and surrogates
 * (`\uD800`–`\uDFFF`; only an unpaired one is a problem). Raw UTF-8 can carry neither.
 */
const ESCAPES = [Buffer.from('\\u0000'), Buffer.from('\\ud'), Buffer.from('\\uD')];

/**
 * Whether a raw JSON body may hold text PostgreSQL cannot store; false means it cannot. A body
 * in another encoding than UTF-8 (body-parser also takes UTF-16 and UTF-32) is always checked.
 */
export function mayHoldBadText(body: Buffer, encoding = 'utf-8'): boolean {
  return encoding !== 'utf-8' || ESCAPES.some((escape) => body.includes(escape));
}

/** `String.prototype.isWellFormed` (Node 20; the compiler's library predates it). */
const isWellFormed = (value: string) =>
  (value as string & { isWellFormed(): boolean }).isWellFormed();

/** What is wrong with a string as PostgreSQL text, or null. */
function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (!isWellFormed(value)) return 'must be valid Unicode text (it has an unpaired surrogate)';
  return null;
}

/**
 * The first string of a parsed JSON value that PostgreSQL text cannot hold, named as a field
 * (`name`, `results[3].message`; a string directly in a list is reported as the list,
 * `defects`), with its problem; or null. Walked with a list, not recursion: a 10 MiB body
 * can nest a million levels deep.
 */
export function badTextField(value: unknown): { field: string; problem: string } | null {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [current, path] = pending.pop() as [unknown, string];
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem !== null) return { field: path || 'body', problem };
    } else if (Array.isArray(current)) {
      // In reverse, so the first offending element is found first.
      for (let i = current.length - 1; i >= 0; i--) {
        const item: unknown = current[i];
        pending.push([item, typeof item === 'string' ? path : `${path}[${i}]`]);
      }
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        pending.push([item, path ? `${path}.${key}` : key]);
      }
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold a NUL character or an unpaired surrogate: such a string, in the
 * query, in a JSON body or anywhere in an XML body, is a 400 naming its field here (thrown), once
 * the body is read and before any handler passes it to the database (which would fail the
 * statement: a 500) or stores it altered. Bodies are walked only when the body parser saw such
 * an escape in their raw bytes.
 */
export function refuseBadText(req: Request): void {
  for (const [name, value] of Object.entries(req.query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const problem = typeof item === 'string' ? textProblem(item) : null;
      if (problem !== null) throw badText(name, problem);
    }
  }
  if (typeof req.body === 'string') {
    // An XML body (the JUnit form of ingest), in whatever encoding it came: XML forbids NUL,
    // but a UTF-16 body can carry an unpaired surrogate that the XML parser lets through.
    const problem = textProblem(req.body);
    if (problem !== null) throw badText('body', problem);
  } else if (req.bodyMayHoldBadText) {
    const found = badTextField(req.body);
    if (found !== null) throw badText(found.field, found.problem);
  }
}

/** Field paths are cut at 200 characters (a body can nest a million lists). */
const MAX_FIELD = 200;

function badText(path: string, problem: string): ApiError {
  const field = path.length > MAX_FIELD ? `${cutText(path, MAX_FIELD)}…` : path;
  return ApiError.invalidField(field, `${field} ${problem}`);
}
