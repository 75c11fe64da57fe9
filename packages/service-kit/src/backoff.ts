export interface BackoffOptions {
  /** The delay after the first failure, before jitter. */
  baseMs: number;
  /** No delay is longer. */
  maxMs: number;
}

/**
 * How long to wait before the retry that follows `attempts` failures: exponential, `baseMs` ×
 * 2^attempts up to `maxMs`, with jitter so that failures at one moment spread out: between half
 * and all of it.
 */
export function backoffMs(
  attempts: number,
  { baseMs, maxMs }: BackoffOptions,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
