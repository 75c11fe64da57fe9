const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const MAX_RETRY_AFTER_MS = 60_000;

/** A request may be sent again when repeating it cannot do the work twice. */
export function mayRetry(
  method: string,
  idempotencyKey: string | undefined,
): boolean {
  return IDEMPOTENT_METHODS.has(method) || idempotencyKey !== undefined;
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** `Retry-After` in seconds or as an HTTP date: the milliseconds it asks to wait from `now`. */
export function retryAfterMs(
  header: string | null | undefined,
  now: number,
): number | undefined {
  if (!header) return undefined;
  const ms = /^\d+$/.test(header.trim())
    ? Number(header) * 1000
    : Date.parse(header) - now;
  return Number.isNaN(ms) ? undefined : Math.max(ms, 0);
}

/**
 * How long to wait before retry `retry` (0 for the first): what `Retry-After` asks (at most a
 * minute), else exponential backoff with full jitter, `random() * min(8 s, 0.5 s * 2^retry)`, so
 * that many clients do not come back at once.
 */
export function retryDelay(
  retry: number,
  retryAfter?: string | null,
  random = Math.random,
): number {
  const asked = retryAfterMs(retryAfter, Date.now());
  if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MS);
  return Math.round(
    random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry),
  );
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
