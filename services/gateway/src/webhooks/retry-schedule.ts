/** So that retries that failed together spread out. */
const JITTER = 0.2;

/** `delaysMs[attempts - 1]` from `now`, ± 20 %; null once the schedule is spent. */
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
