import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Transactions } from './transactions.js';

/**
 * PostgreSQL's bulk formats: COPY text format ("COPY … FROM STDIN"), streamed on a
 * transaction's connection, and array literals for bulk parameters. A batch sends thousands
 * of values; the formatting skips the work that values without special characters do not need.
 */

/** The size of one CopyData message we send: the server loads one while the next is made. */
const COPY_MESSAGE_SIZE = 64 * 1024;

export const COPY_NULL = '\\N';

const COPY_SPECIAL = /[\\\t\n\r]/;
const ARRAY_SPECIAL = /["\\]/;

/** Escapes a value for one column of a text-format COPY line. */
export function copyText(value: string | null): string {
  if (value === null) return COPY_NULL;
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (char) =>
    char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r',
  );
}

/**
 * An array literal (`{"a","b",NULL}`) for a `text[]`, `uuid[]` or enum array parameter: one
 * string instead of the driver quoting each element.
 */
export function arrayLiteral(values: ReadonlyArray<string | null>): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ',';
    if (value === null) literal += 'NULL';
    else if (ARRAY_SPECIAL.test(value)) literal += `"${value.replace(/["\\]/g, '\\$&')}"`;
    else literal += `"${value}"`;
  }
  return `${literal}}`;
}

/** A text[] value as an array literal, then escaped for COPY. */
export function copyTextArray(values: string[]): string {
  return values.length === 0 ? '{}' : copyText(arrayLiteral(values));
}

/** `line` of each value, made only when asked for. */
export function* copyLines<T>(
  values: readonly T[],
  line: (value: T, index: number) => string,
): Generator<string> {
  for (let i = 0; i < values.length; i++) yield line(values[i], i);
}

/**
 * Lines joined into CopyData messages of about `COPY_MESSAGE_SIZE`, each made when the
 * connection is ready for it, so no large string is held.
 */
function* copyMessages(lines: Iterable<string>): Generator<string> {
  let message = '';
  for (const line of lines) {
    message += line;
    if (message.length >= COPY_MESSAGE_SIZE) {
      yield message;
      message = '';
    }
  }
  if (message.length > 0) yield message;
}

/**
 * Streams COPY text-format lines to `statement` (a `COPY table (columns) FROM STDIN`, named by
 * its repository) on the current transaction's connection, as they come.
 */
export async function copyInto(
  transactions: Transactions,
  statement: string,
  lines: Iterable<string>,
): Promise<void> {
  const runner = transactions.manager.queryRunner;
  if (!runner) throw new Error('COPY needs a transaction');
  const client = (await runner.connect()) as PoolClient;
  await pipeline(Readable.from(copyMessages(lines)), client.query(copyFrom(statement)));
}
