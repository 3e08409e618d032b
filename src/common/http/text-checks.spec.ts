import { badTextField, mayHoldBadText } from './text-checks.js';

const NUL = 'must not contain NUL characters';

describe('text PostgreSQL cannot hold', () => {
  it('names the field that holds a NUL character, with array paths', () => {
    expect(badTextField({ name: 'a\u0000b' })).toEqual({ field: 'name', problem: NUL });
    expect(
      badTextField({ name: 'ok', results: [{ status: 'x' }, { message: 'bad\u0000' }] })?.field,
    ).toBe('results[1].message');
    expect(badTextField({ meta: { tags: { owner: '\u0000' } } })?.field).toBe('meta.tags.owner');
    // A string directly in a list is reported as the list, as other checks of lists are.
    expect(badTextField({ results: [{ defects: ['JIRA-1', 'JIRA-\u0000'] }] })?.field).toBe(
      'results[0].defects',
    );
    expect(badTextField(['\u0000'])?.field).toBe('body');
    expect(badTextField('\u0000')?.field).toBe('body');
    // The first offending field, in document order.
    expect(badTextField({ a: 'ok', b: ['\u0000'], c: '\u0000' })?.field).toBe('b');
  });

  it('names a string with an unpaired surrogate; a pair is fine', () => {
    expect(badTextField({ results: [{ automation_id: 'x\ud800' }] })).toEqual({
      field: 'results[0].automation_id',
      problem: expect.stringMatching(/unpaired surrogate/),
    });
    expect(badTextField({ name: '\udc00 first' })?.field).toBe('name');
    expect(badTextField({ name: 'emoji \ud83d\ude00' })).toBeNull();
  });

  it('finds none where there is none, however deep the nesting', () => {
    expect(
      badTextField({ name: 'a', n: 1, ok: true, none: null, list: ['x', 2, { y: 'z' }] }),
    ).toBeNull();
    expect(badTextField({ text: '\\u0000' })).toBeNull();
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(badTextField({ deep })?.field).toBe(`deep${'[0]'.repeat(199_999)}`);
  });

  it('walks a body only when its raw bytes may hold such text', () => {
    const raw = (value: unknown) => Buffer.from(JSON.stringify(value));
    expect(mayHoldBadText(raw({ name: 'a\u0000b' }))).toBe(true);
    expect(mayHoldBadText(raw({ name: 'x\ud800' }))).toBe(true);
    expect(mayHoldBadText(Buffer.from('{"name":"\\uD800"}'))).toBe(true);
    expect(mayHoldBadText(raw({ name: 'plain, and é in UTF-8' }))).toBe(false);
    // The escaped text "\u0000" (a backslash, then u0000) also matches: the walk settles it.
    expect(mayHoldBadText(raw({ name: '\\u0000' }))).toBe(true);
    // UTF-16 and UTF-32 bodies are always walked.
    expect(mayHoldBadText(Buffer.from('{"name":"plain"}', 'utf16le'), 'utf-16le')).toBe(true);
  });
});
