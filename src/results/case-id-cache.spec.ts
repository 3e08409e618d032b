import { CaseIdCache } from './case-id-cache.js';

describe('CaseIdCache', () => {
  it('finds a case by project and automation id only', () => {
    const cache = new CaseIdCache();
    cache.remember('p1', 'suite.test', 'case-1');
    expect(cache.get('p1', 'suite.test')).toBe('case-1');
    expect(cache.get('p2', 'suite.test')).toBeUndefined();
    expect(cache.get('p1', 'suite.other')).toBeUndefined();
  });

  it('keeps at most its capacity, forgetting the project remembered longest ago first', () => {
    const cache = new CaseIdCache(3);
    cache.remember('old', 'a', 'id-a');
    cache.remember('old', 'b', 'id-b');
    cache.remember('new', 'c', 'id-c');
    cache.remember('new', 'c', 'id-c');
    expect(cache.size).toBe(3);
    cache.remember('new', 'd', 'id-d');
    expect(cache.size).toBe(2);
    expect(cache.get('old', 'a')).toBeUndefined();
    expect(cache.get('new', 'd')).toBe('id-d');
    cache.remember('new', 'e', 'id-e');
    cache.remember('new', 'f', 'id-f');
    expect(cache.size).toBe(1);
    expect(cache.get('new', 'f')).toBe('id-f');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('new', 'f')).toBeUndefined();
  });
});
