/** How fast a key may go: a bucket of `burst` tokens refilled at `perSecond`. */
export interface RatePolicy {
  /** Tokens added per second. */
  perSecond: number;
  /** The most tokens a bucket holds: the burst a client may send at once. */
  burst: number;
}

export interface Admission {
  allowed: boolean;
  /** `RateLimit-Limit`: the burst. */
  limit: number;
  /** `RateLimit-Remaining`: whole requests left now. */
  remaining: number;
  /** `RateLimit-Reset`: seconds until the limit is whole again. */
  resetSeconds: number;
  /** `Retry-After` when refused: seconds until one request is allowed (at least 1). */
  retryAfterSeconds: number;
}

/** Counts one request of `key` (an API key id, a client address) against its limit. */
export interface RateLimiter {
  take(key: string): Promise<Admission>;
}
