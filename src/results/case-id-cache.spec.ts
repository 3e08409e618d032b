import { CaseIdCache } from './case-id-cache.js';

describe('CaseIdCache', () => {
  it('finds a case by project and automation id only', () => {
    const cache = new CaseIdCache();
    cache.remember('p1', 'suite.test', 'case-1');
    expect(cache.of('p1')?.get('suite.test')).toBe('case-1');
    expect(cache.of('p2')?.get('suite.test')).toBeUndefined();
    expect(cache.of('p1')?.get('suite.other')).toBeUndefined();
    expect(cache.of('p1')).toBeDefined();
    expect(cache.of('p2')).toBeUndefined();
  });

  it('keeps at most its capacity in characters, forgetting the oldest project first', () => {
    const cache = new CaseIdCache(12);
    cache.remember('old', 'a', 'id-a'); // 5 characters
    cache.remember('old', 'b', 'id-b'); // 10
    cache.remember('old', 'b', 'id-b'); // already there
    expect(cache.size).toBe(10);
    cache.remember('new', 'c', 'id-c'); // 15 > 12: "old" goes
    expect(cache.size).toBe(5);
    expect(cache.of('old')?.get('a')).toBeUndefined();
    expect(cache.of('new')?.get('c')).toBe('id-c');
    cache.remember('new', 'd', 'id-d');
    cache.remember('new', 'e', 'id-e'); // 15 > 12: "new" itself goes, then takes "e"
    expect(cache.size).toBe(5);
    expect(cache.of('new')?.get('e')).toBe('id-e');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.of('new')?.get('e')).toBeUndefined();
  });
});
