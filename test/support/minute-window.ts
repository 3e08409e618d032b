/**
 * The per-minute limit counts in fixed windows of the wall clock (src/limits/minute-limiter.ts).
 * A test whose calls must fall into one window starts at the beginning of a fresh one when the
 * current one has less than `neededMs` left, instead of failing when the minute turns mid-test.
 * Returns the window the calls start in.
 */
export async function freshMinuteWindow(neededMs = 10_000): Promise<number> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
  return Math.floor(Date.now() / 60_000);
}
