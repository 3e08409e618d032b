import { CaseIdCache } from './case-id-cache.js';

describe('CaseIdCache', () => {
  it('finds a case by project and automation id only', () => {
    const cache = new CaseIdCache();
    cache.remember('p1', 'suite.test', 'case-1');
    expect(cache.get('p1', 'suite.test')).toBe('case-1');
    expect(cache.get('p2', 'suite.test')).toBeUndefined();
    expect(cache.get('p1', 'suite.other')).toBeUndefined();
    expect(cache.knows('p1')).toBe(true);
    expect(cache.knows('p2')).toBe(false);
  });

  it('keeps at most its capacity in characters, forgetting the oldest project first', () => {
    const cache = new CaseIdCache(12);
    cache.remember('old', 'a', 'id-a'); // 5 characters
    cache.remember('old', 'b', 'id-b'); // 10
    cache.remember('old', 'b', 'id-b'); // already there
    expect(cache.size).toBe(10);
    cache.remember('new', 'c', 'id-c'); // 15 > 12: "old" goes
    expect(cache.size).toBe(5);
    expect(cache.get('old', 'a')).toBeUndefined();
    expect(cache.get('new', 'c')).toBe('id-c');
    cache.remember('new', 'd', 'id-d');
    cache.remember('new', 'e', 'id-e'); // 15 > 12: "new" itself goes, then takes "e"
    expect(cache.size).toBe(5);
    expect(cache.get('new', 'e')).toBe('id-e');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('new', 'e')).toBeUndefined();
  });
});
