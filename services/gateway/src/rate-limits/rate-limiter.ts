/** A bucket of `burst` tokens refilled at `perSecond`. */
export interface RatePolicy {
  perSecond: number;
  burst: number;
}

/** One request counted, as the `RateLimit-*` and `Retry-After` headers say it. */
export interface Admission {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(key: string): Promise<Admission>;
}
