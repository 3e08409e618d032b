import { csvCell, csvLine } from './csv.js';

describe('csv', () => {
  it('writes plain text, numbers, yes/no and nothing as they are', () => {
    expect(csvLine(['adds an item', 120, true, null, -3])).toBe('adds an item,120,true,,-3\r\n');
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('said "no"')).toBe('"said ""no"""');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])(
    'prefixes text starting %j with a quote so no spreadsheet runs it',
    (text) => {
      expect(csvCell(text).replace(/^"/, '').startsWith(`'${text[0]}`)).toBe(true);
    },
  );

  it('guards and quotes at once: a formula holding a comma', () => {
    expect(csvCell('=HYPERLINK("http://x", "y")')).toBe(`"'=HYPERLINK(""http://x"", ""y"")"`);
  });
});
