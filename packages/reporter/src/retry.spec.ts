import { backoffMs, retryAfterMs } from './retry.js';

describe('retry schedule (SPEC.md, Limits)', () => {
  it('waits 1 s × 2^attempt plus 0–500 ms of jitter, at most 60 s', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(0, () => 0.999999)).toBe(1500);
    expect(backoffMs(10, () => 0.5)).toBe(60_000);
  });

  it('reads Retry-After in seconds or as a date, capped at 60 s', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('600')).toBe(60_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 8_000)).toBe(2000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
