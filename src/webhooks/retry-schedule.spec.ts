import { retryDelayMs } from './retry-schedule.js';

// The nominal schedule (base, ×4, ×16, ×64) is pinned in signing.spec.ts; these pin the jitter.
describe('retry schedule jitter', () => {
  const base = 600_000;

  it('moves every retry’s delay by at most 10 % either way, reaching both ends', () => {
    for (const next of [2, 3, 4, 5]) {
      const nominal = base * 4 ** (next - 2);
      expect(retryDelayMs(next, base, () => 0)).toBe(nominal * 0.9);
      expect(retryDelayMs(next, base, () => 0.25)).toBe(nominal * 0.95);
      const top = retryDelayMs(next, base, () => 0.999_999);
      expect(top).toBeLessThanOrEqual(nominal * 1.1);
      expect(top).toBeGreaterThan(nominal * 1.099);
    }
  });

  it('spreads delays over the whole range with the real random source', () => {
    const delays = Array.from({ length: 2000 }, () => retryDelayMs(3, 1000));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(3600);
    expect(Math.max(...delays)).toBeLessThanOrEqual(4400);
    // Both sides are used (a one-sided or constant jitter would fail), and not just the ends.
    expect(delays.filter((d) => d < 3800).length).toBeGreaterThan(200);
    expect(delays.filter((d) => d > 4200).length).toBeGreaterThan(200);
    expect(new Set(delays).size).toBeGreaterThan(300);
  });
});
