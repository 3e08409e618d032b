import { randomUUID } from 'node:crypto';
import { uuid7 } from '../common/uuid7.js';
import { orderByCase } from './case-order.js';

/** Checks that `order` lists every index once, by case id, ties in index order. */
function expectOrdered(ids: string[], order: number[]): void {
  expect([...order].sort((a, b) => a - b)).toEqual(ids.map((_, i) => i));
  for (let k = 1; k < order.length; k++) {
    const [before, after] = [order[k - 1], order[k]];
    expect(ids[before] < ids[after] || (ids[before] === ids[after] && before < after)).toBe(true);
  }
}

function shuffled<T>(values: T[]): T[] {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

describe('orderByCase', () => {
  it('orders random and time-ordered ids, and repeated cases by index', () => {
    const now = Date.now() + 100_000;
    const distinct = [
      ...Array.from({ length: 1000 }, () => randomUUID()),
      // Made in one millisecond: they share their first 48 bits.
      ...Array.from({ length: 1000 }, () => uuid7(now)),
    ];
    const ids = shuffled([...distinct, ...distinct.slice(0, 300), ...distinct.slice(1500, 1600)]);
    expectOrdered(ids, orderByCase(ids));
  });

  it('orders by code units, not by locale', () => {
    const ids = ['b', 'A', 'a', 'B', 'a', 'é', 'z'];
    expect(orderByCase(ids)).toEqual([1, 3, 2, 4, 0, 6, 5]);
    expect(orderByCase([])).toEqual([]);
  });
});
