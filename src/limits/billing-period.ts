export interface BillingPeriod {
  start: Date;
  /** Exclusive: the moment the next period starts (the monthly reset). */
  end: Date;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** Midnight UTC of the anchor day in the given month, clamped to the month's last day. */
function anniversary(year: number, month: number, anchorDay: number): Date {
  const normalized = new Date(Date.UTC(year, month, 1));
  const y = normalized.getUTCFullYear();
  const m = normalized.getUTCMonth();
  return new Date(Date.UTC(y, m, Math.min(anchorDay, daysInMonth(y, m))));
}

/**
 * The billing period containing `now`: periods start at midnight UTC on the monthly
 * anniversary of the subscription's start date; an anchor on the 29th–31st falls on the last
 * day of shorter months (a 31 January anchor resets on 28/29 February, then 31 March).
 */
export function billingPeriodFor(subscriptionStartedAt: Date, now: Date): BillingPeriod {
  const anchorDay = subscriptionStartedAt.getUTCDate();
  const firstStart = anniversary(
    subscriptionStartedAt.getUTCFullYear(),
    subscriptionStartedAt.getUTCMonth(),
    anchorDay,
  );
  if (now < firstStart) {
    return {
      start: firstStart,
      end: anniversary(firstStart.getUTCFullYear(), firstStart.getUTCMonth() + 1, anchorDay),
    };
  }
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  let start = anniversary(year, month, anchorDay);
  if (start > now) start = anniversary(year, month - 1, anchorDay);
  const end = anniversary(start.getUTCFullYear(), start.getUTCMonth() + 1, anchorDay);
  return { start, end };
}
