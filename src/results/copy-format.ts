/** Text-format COPY encoding (PostgreSQL "COPY … FROM STDIN", default text format). */

export const COPY_NULL = '\\N';

/** Escapes a value for one column of a text-format COPY line. */
export function copyText(value: string | null): string {
  if (value === null) return COPY_NULL;
  return value.replace(/[\\\t\n\r]/g, (char) =>
    char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r',
  );
}

/** A text[] value as an array literal, then escaped for COPY. */
export function copyTextArray(values: string[]): string {
  const literal = `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  return copyText(literal);
}
