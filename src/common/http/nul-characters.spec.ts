import { mayHoldNul, nulField } from './nul-characters.js';

describe('NUL characters', () => {
  it('names the field that holds one, with array paths', () => {
    expect(nulField({ name: 'a\u0000b' })).toBe('name');
    expect(nulField({ name: 'ok', results: [{ status: 'x' }, { message: 'bad\u0000' }] })).toBe(
      'results[1].message',
    );
    expect(nulField({ meta: { tags: { owner: '\u0000' } } })).toBe('meta.tags.owner');
    // A string directly in a list is reported as the list, as other checks of lists are.
    expect(nulField({ results: [{ defects: ['JIRA-1', 'JIRA-\u0000'] }] })).toBe(
      'results[0].defects',
    );
    expect(nulField(['\u0000'])).toBe('body');
    expect(nulField('\u0000')).toBe('body');
  });

  it('finds none where there is none', () => {
    expect(
      nulField({ name: 'a', n: 1, ok: true, none: null, list: ['x', 2, { y: 'z' }] }),
    ).toBeNull();
    expect(nulField({ text: '\\u0000' })).toBeNull();
  });

  it('walks a body only when its raw bytes hold an escaped NUL', () => {
    expect(mayHoldNul(Buffer.from(JSON.stringify({ name: 'a\u0000b' })))).toBe(true);
    expect(mayHoldNul(Buffer.from(JSON.stringify({ name: 'plain' })))).toBe(false);
    // The escaped text "\u0000" (a backslash, then u0000) also matches: the walk settles it.
    expect(mayHoldNul(Buffer.from(JSON.stringify({ name: '\\u0000' })))).toBe(true);
  });
});
