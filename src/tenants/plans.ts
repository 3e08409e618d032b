import type { Plan } from './organization.entity.js';

/** Calls a month each plan includes; Basic has no API access (SPEC "Limits"). */
export const PLAN_MONTHLY_CALL_LIMIT: Record<Plan, number> = {
  basic: 0,
  pro: 1_000,
  enterprise: 10_000,
};

/** Webhook subscriptions each plan allows; null = unlimited. */
export const PLAN_WEBHOOK_LIMIT: Record<Plan, number | null> = {
  basic: 0,
  pro: 5,
  enterprise: null,
};

export function effectiveMonthlyCallLimit(org: {
  plan: Plan;
  monthlyCallLimit: number | null;
}): number {
  return org.monthlyCallLimit ?? PLAN_MONTHLY_CALL_LIMIT[org.plan];
}
