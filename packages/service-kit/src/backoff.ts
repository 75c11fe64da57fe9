/** Exponential backoff with jitter: between half and all of `baseMs` × 2^attempts, at most `maxMs`. */
export function backoffMs(attempts: number, { baseMs, maxMs }: { baseMs: number; maxMs: number }) {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
