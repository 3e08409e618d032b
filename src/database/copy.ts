/**
 * PostgreSQL text formats for bulk parameters: COPY text format ("COPY … FROM STDIN") and
 * array literals. A batch sends thousands of values; these skip the work that values without
 * special characters do not need.
 */

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
