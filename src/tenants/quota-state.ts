/** An organization's monthly quota in its current billing period, as a call left it. */
export interface QuotaState {
  limit: number;
  /** Calls counted in this period, including the current one when it was admitted. */
  used: number;
  remaining: number;
  resetAt: Date;
  admitted: boolean;
}
