import { createUuid7, uuid7 } from './uuid7.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timeOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

describe('uuid7', () => {
  // The generator keeps the last millisecond it used: these tests run in order, in time.
  it('is a version 7 UUID carrying the time in milliseconds', () => {
    const past = Date.UTC(2020, 0, 1, 12, 0, 0, 123);
    const id = uuid7(past);
    expect(id).toMatch(V7);
    expect(timeOf(id)).toBe(past);
  });

  it('only ever increases: within a millisecond, in a new one, and when the clock goes back', () => {
    const ids = Array.from({ length: 50_000 }, () => uuid7());
    const later = Date.now() + 10_000;
    ids.push(uuid7(later), uuid7(later)); // a new millisecond, then the same one again
    expect(timeOf(ids[ids.length - 2])).toBe(later);
    ids.push(uuid7(later - 60_000), uuid7(later - 60_000)); // the clock went back a minute
    expect(timeOf(ids[ids.length - 1])).toBe(later);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(ids.every((id) => V7.test(id))).toBe(true);
  });

  it('ends in 48 random bits, not a sequence', () => {
    const tails = Array.from({ length: 1000 }, () => parseInt(uuid7().slice(24), 16));
    expect(new Set(tails).size).toBe(1000);
    // Ids made in order: a counter would make their tails rise too.
    const rising = tails.filter((tail, i) => i > 0 && tail > tails[i - 1]).length;
    expect(rising).toBeGreaterThan(350);
    expect(rising).toBeLessThan(650);
    expect(Math.max(...tails) - Math.min(...tails)).toBeGreaterThan(2 ** 46);
  });

  it('borrows the next millisecond when its counter runs out, still increasing', () => {
    // A counter of 16 values, starting in its lower half: out within 16 ids.
    const small = createUuid7(16);
    const now = Date.UTC(2021, 5, 1);
    const ids = Array.from({ length: 40 }, () => small(now));
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(ids.every((id) => V7.test(id))).toBe(true);
    expect(timeOf(ids[0])).toBe(now);
    expect(timeOf(ids[ids.length - 1])).toBeGreaterThanOrEqual(now + 2);
  });
});
