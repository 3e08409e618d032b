import { cutText, storableText } from './text.js';

describe('cutting and storing text', () => {
  it('cuts at the limit, or one unit earlier when the limit falls inside a surrogate pair', () => {
    expect(cutText('abcdef', 4)).toBe('abcd');
    expect(cutText('abc', 4)).toBe('abc');
    expect(cutText('ab\u{1F600}c', 3)).toBe('ab');
    expect(cutText('ab\u{1F600}c', 4)).toBe('ab\u{1F600}');
    expect(cutText('\u{1F600}\u{1F600}', 3)).toBe('\u{1F600}');
    for (let max = 1; max <= 8; max++) {
      const cut = cutText('a\u{1F600}b\u{1F600}\u{1F600}', max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.length).toBeGreaterThanOrEqual(max - 1);
      // A lone surrogate does not survive UTF-8: it comes back as U+FFFD.
      expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
    }
  });

  it('makes text from outside storable: NUL and unpaired surrogates become U+FFFD', () => {
    expect(storableText('ok \u{1F600}')).toBe('ok \u{1F600}');
    expect(storableText('a\u0000b\ud800c\udc00')).toBe('a\uFFFDb\uFFFDc\uFFFD');
  });
});
