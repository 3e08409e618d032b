import { arrayLiteral, copyText, copyTextArray } from './copy.js';

describe('COPY text encoding', () => {
  it('escapes backslashes, tabs and line breaks, and writes NULL as \\N', () => {
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText(null)).toBe('\\N');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyText('plain')).toBe('plain');
  });

  it('writes arrays as quoted array literals', () => {
    expect(copyTextArray([])).toBe('{}');
    expect(copyTextArray(['JIRA-1', 'a "b"', 'c\\d', 'x,y'])).toBe(
      '{"JIRA-1","a \\\\"b\\\\"","c\\\\\\\\d","x,y"}',
    );
  });
});

describe('array literals', () => {
  it('quotes every element, escapes quotes and backslashes, and writes null as NULL', () => {
    expect(arrayLiteral([])).toBe('{}');
    expect(arrayLiteral(['a', null, 'NULL', 'x,y} {', 'say "hi"', 'c:\\d'])).toBe(
      '{"a",NULL,"NULL","x,y} {","say \\"hi\\"","c:\\\\d"}',
    );
  });
});
