/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF line ends, a field quoted when it holds a
 * comma, a quote or a line break, its quotes doubled), made safe to open in a spreadsheet: a
 * text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as
 * a formula (OWASP's "CSV injection"), so it is prefixed with `'`, which the spreadsheet shows
 * as text. Numbers and booleans are written as they are: `-3` is a number, not a formula.
 */

/** A cell's value: text (guarded), a number or a yes/no (as is), or nothing (empty). */
export type CsvValue = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell, guarded against formulas when text, quoted when it must be. */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, with its CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
