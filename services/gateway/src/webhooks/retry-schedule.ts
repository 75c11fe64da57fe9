/** How far either way a retry's delay may move, so retries that failed together spread out. */
const JITTER = 0.2;

/**
 * When a delivery that has failed `attempts` times is tried next: `delaysMs[attempts - 1]` from
 * `now`, ± 20 %; null once the schedule is spent, and the delivery has failed for good.
 */
export function nextAttemptAt(
  attempts: number,
  delaysMs: readonly number[],
  now: Date,
  random: () => number = Math.random,
): Date | null {
  const delayMs = delaysMs[attempts - 1];
  if (delayMs === undefined) return null;
  const jittered = delayMs * (1 - JITTER + 2 * JITTER * random());
  return new Date(now.getTime() + Math.round(jittered));
}
