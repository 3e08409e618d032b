import { CaseIdCache } from './case-id-cache.js';

describe('CaseIdCache', () => {
  it('finds a case by project and automation id only', () => {
    const cache = new CaseIdCache();
    cache.remember('p1', 'suite.test', 'case-1');
    expect(cache.get('p1', 'suite.test')).toBe('case-1');
    expect(cache.get('p2', 'suite.test')).toBeUndefined();
    expect(cache.get('p1', 'suite.other')).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the oldest first', () => {
    const cache = new CaseIdCache(3);
    for (const name of ['a', 'b', 'c', 'd']) cache.remember('p', name, `id-${name}`);
    expect(cache.size).toBe(3);
    expect(cache.get('p', 'a')).toBeUndefined();
    expect(cache.get('p', 'd')).toBe('id-d');
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
