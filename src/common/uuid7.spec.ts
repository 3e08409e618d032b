import { uuid7 } from './uuid7.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuid7', () => {
  it('is a version 7 UUID carrying the time in milliseconds', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0, 123);
    const id = uuid7(now);
    expect(id).toMatch(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
  });

  it('only ever increases, within a millisecond and when the clock goes back', () => {
    const ids = Array.from({ length: 50_000 }, () => uuid7());
    const now = Date.now();
    ids.push(uuid7(now + 5), uuid7(now + 5), uuid7(now - 60_000), uuid7(now - 60_000));
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(ids.every((id) => V7.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ends in 48 random bits', () => {
    const tails = new Set(Array.from({ length: 1000 }, () => uuid7().slice(24)));
    expect(tails.size).toBe(1000);
  });
});
