import { randomUUID } from 'node:crypto';
import { uuid7 } from '../common/uuid7.js';
import { compare, orderByCase } from './case-order.js';

const naive = (ids: string[]) =>
  ids.map((_, i) => i).sort((a, b) => compare(ids[a], ids[b]) || a - b);

describe('orderByCase', () => {
  it('orders by whole case id, then by index, like a comparator sort', () => {
    const distinct = Array.from({ length: 3000 }, () => randomUUID());
    // Ids that share their first 32 bits, and cases named several times.
    const sharing = Array.from({ length: 50 }, (_, i) =>
      `0000abcd-${randomUUID().slice(9)}${i}`.slice(0, 36),
    );
    const ids = [...distinct, ...sharing, ...distinct.slice(0, 400), ...sharing.slice(0, 10)];
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    expect(orderByCase(ids)).toEqual(naive(ids));
  });

  it('orders time-ordered ids (version 7) made in the same millisecond', () => {
    const now = Date.now() + 100_000;
    const ids = Array.from({ length: 2000 }, () => uuid7(now));
    // Ids that differ only in their last digits, and repeated cases.
    ids.push(...ids.slice(0, 10).map((id) => `${id.slice(0, 35)}0`), ...ids.slice(0, 300));
    const shuffled = [...ids].sort(() => Math.random() - 0.5);
    expect(orderByCase(shuffled)).toEqual(naive(shuffled));
  });

  it('falls back to comparing whole ids when they are not lowercase UUIDs', () => {
    const ids = ['b', 'A', 'a', 'B', 'a'];
    expect(orderByCase(ids)).toEqual([1, 3, 2, 4, 0]);
    expect(orderByCase([])).toEqual([]);
  });
});
