import { copyText, copyTextArray } from './copy-format.js';

describe('COPY text encoding', () => {
  it('escapes backslashes, tabs and line breaks, and writes NULL as \\N', () => {
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText(null)).toBe('\\N');
    expect(copyText('\\N')).toBe('\\\\N');
  });

  it('writes arrays as quoted array literals', () => {
    expect(copyTextArray([])).toBe('{}');
    expect(copyTextArray(['JIRA-1', 'a "b"', 'c\\d', 'x,y'])).toBe(
      '{"JIRA-1","a \\\\"b\\\\"","c\\\\\\\\d","x,y"}',
    );
  });
});
