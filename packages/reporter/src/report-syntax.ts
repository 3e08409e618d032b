/**
 * Where a report is not what it should be: the 1-based line (and column, in characters, when
 * known) and what is wrong there.
 */
export class ReportSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'ReportSyntaxError';
  }
}

export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The 1-based column of `index` in its line, in characters (a surrogate pair is one). */
export function columnAt(text: string, index: number): number {
  let column = 1;
  for (let k = text.lastIndexOf('\n', index - 1) + 1; k < index; k++) {
    const code = text.charCodeAt(k);
    if (code < 0xdc00 || code > 0xdfff) column++;
  }
  return column;
}
