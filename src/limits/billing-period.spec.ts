import { billingPeriodFor } from './billing-period.js';

const at = (iso: string) => new Date(iso);
const period = (anchor: string, now: string) => {
  const { start, end } = billingPeriodFor(at(anchor), at(now));
  return [start.toISOString(), end.toISOString()];
};

describe('billingPeriodFor', () => {
  it('runs from one monthly anniversary (midnight UTC) to the next', () => {
    expect(period('2026-01-15T13:45:00Z', '2026-05-20T08:00:00Z')).toEqual([
      '2026-05-15T00:00:00.000Z',
      '2026-06-15T00:00:00.000Z',
    ]);
  });

  it('belongs to the previous anniversary before this month’s has come', () => {
    expect(period('2026-01-15T13:45:00Z', '2026-05-14T23:59:59.999Z')).toEqual([
      '2026-04-15T00:00:00.000Z',
      '2026-05-15T00:00:00.000Z',
    ]);
  });

  it('starts a new period exactly at the anniversary', () => {
    expect(period('2026-01-15T00:00:00Z', '2026-05-15T00:00:00.000Z')[0]).toBe(
      '2026-05-15T00:00:00.000Z',
    );
  });

  it('clamps an anchor on the 31st to the last day of shorter months', () => {
    const anchor = '2026-01-31T10:00:00Z';
    expect(period(anchor, '2026-02-10T00:00:00Z')).toEqual([
      '2026-01-31T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
    ]);
    expect(period(anchor, '2026-03-01T00:00:00Z')).toEqual([
      '2026-02-28T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ]);
    expect(period(anchor, '2026-04-30T12:00:00Z')).toEqual([
      '2026-04-30T00:00:00.000Z',
      '2026-05-31T00:00:00.000Z',
    ]);
    expect(period(anchor, '2028-02-29T00:00:01Z')).toEqual([
      '2028-02-29T00:00:00.000Z',
      '2028-03-31T00:00:00.000Z',
    ]);
  });

  it('handles an anchor on 29 February in leap and common years', () => {
    const anchor = '2024-02-29T09:00:00Z';
    expect(period(anchor, '2025-02-28T05:00:00Z')).toEqual([
      '2025-02-28T00:00:00.000Z',
      '2025-03-29T00:00:00.000Z',
    ]);
    expect(period(anchor, '2026-03-28T23:00:00Z')).toEqual([
      '2026-02-28T00:00:00.000Z',
      '2026-03-29T00:00:00.000Z',
    ]);
    expect(period(anchor, '2028-02-29T00:00:00Z')).toEqual([
      '2028-02-29T00:00:00.000Z',
      '2028-03-29T00:00:00.000Z',
    ]);
  });

  it('crosses the year boundary', () => {
    expect(period('2025-03-20T00:00:00Z', '2027-01-05T00:00:00Z')).toEqual([
      '2026-12-20T00:00:00.000Z',
      '2027-01-20T00:00:00.000Z',
    ]);
  });

  it('uses the first period for a subscription that starts in the future', () => {
    expect(period('2026-09-10T12:00:00Z', '2026-09-01T00:00:00Z')).toEqual([
      '2026-09-10T00:00:00.000Z',
      '2026-10-10T00:00:00.000Z',
    ]);
  });
});
