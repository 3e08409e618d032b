import { CaseIdCache } from './case-id-cache.js';

describe('CaseIdCache', () => {
  it('finds a case by project and automation id only', () => {
    const cache = new CaseIdCache();
    cache.remember('p1', 'suite.test', 'case-1');
    expect(cache.of('p1')?.ids.get('suite.test')).toBe('case-1');
    expect(cache.of('p1')?.ids.get('suite.other')).toBeUndefined();
    expect(cache.of('p1')?.complete).toBe(true);
    expect(cache.of('p2')).toBeUndefined();
  });

  it('keeps at most its capacity in characters, forgetting the project used longest ago', () => {
    const cache = new CaseIdCache(12);
    cache.remember('old', 'a', 'id-a'); // 5 characters
    cache.remember('new', 'b', 'id-b'); // 10
    cache.remember('new', 'b', 'id-b'); // already there
    expect(cache.size).toBe(10);
    cache.of('old'); // "old" is now the one used last
    cache.remember('other', 'c', 'id-c'); // 15 > 12: "new" goes
    expect(cache.size).toBe(10);
    expect(cache.of('new')).toBeUndefined();
    expect(cache.of('old')?.ids.get('a')).toBe('id-a');
    expect(cache.of('other')?.ids.get('c')).toBe('id-c');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.of('other')).toBeUndefined();
  });

  it('keeps what it has of a project that alone outgrows it, marked incomplete', () => {
    const cache = new CaseIdCache(12);
    cache.remember('big', 'a', 'id-a');
    cache.remember('big', 'b', 'id-b');
    cache.remember('big', 'c', 'id-c'); // 15 > 12, and no other project to forget
    expect(cache.size).toBe(10);
    const big = cache.of('big');
    expect(big?.complete).toBe(false);
    expect([...(big?.ids.keys() ?? [])]).toEqual(['a', 'b']);
  });

  it('finds names remembered as slices of a larger string (it keeps copies)', () => {
    const report = `${'x'.repeat(100)}suite.case`;
    const cache = new CaseIdCache();
    cache.remember('p', report.slice(100), 'id');
    expect(cache.of('p')?.ids.get('suite.case')).toBe('id');
  });
});
