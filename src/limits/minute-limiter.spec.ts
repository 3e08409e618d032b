import type { Redis } from 'ioredis';
import { loadSettings } from '../config/settings.js';
import { MinuteLimiter } from './minute-limiter.js';

describe('MinuteLimiter (memory store)', () => {
  const limiter = () =>
    new MinuteLimiter(loadSettings({ RATE_LIMIT_PER_MINUTE: '3' }), {} as unknown as Redis);
  const minute = 60_000;
  const start = 1_000 * minute;

  it('refuses the call over the limit and starts again in the next minute', async () => {
    const l = limiter();
    const allowed = [];
    for (let i = 0; i < 4; i++) allowed.push((await l.hit('org', start + i)).allowed);
    expect(allowed).toEqual([true, true, true, false]);
    expect((await l.hit('org', start + minute)).allowed).toBe(true);
  });

  it('never lets a call stamped in the previous minute reset the current one', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.hit('org', start + minute + i);
    // A request that read the clock just before the minute turned counts late.
    expect((await l.hit('org', start + minute - 1)).allowed).toBe(false);
    expect((await l.hit('org', start + minute + 10)).allowed).toBe(false);
  });

  it('answers Retry-After in whole seconds to the end of the window, at least 1', async () => {
    const l = limiter();
    expect((await l.hit('org', start)).retryAfter).toBe(60);
    expect((await l.hit('org', start + 59_001)).retryAfter).toBe(1);
    expect((await l.hit('org', start + 59_999)).retryAfter).toBe(1);
    expect((await l.hit('org', start + 30_500)).retryAfter).toBe(30);
  });

  it('takes back a refunded call in the same minute only', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.hit('org', start + i);
    l.refund('org', start + 5);
    expect((await l.hit('org', start + 6)).allowed).toBe(true);
    l.refund('org', start - minute);
    expect((await l.hit('org', start + 7)).allowed).toBe(false);
  });
});
