/** At most this many attempts per delivery (SPEC: 5 over about 14 hours). */
export const MAX_ATTEMPTS = 5;

/**
 * Delay before attempt `next` (2..5) after a failure: base, 4×, 16×, 64× base, each ±10 %
 * jitter. With the default base of 10 minutes: ~10, 40, 160, 640 minutes, ~14 h in all.
 */
export function retryDelayMs(
  next: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const nominal = baseMs * 4 ** (next - 2);
  const jitter = 1 + (random() * 0.2 - 0.1);
  return Math.round(nominal * jitter);
}
