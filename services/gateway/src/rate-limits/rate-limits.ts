import type { Db } from 'mongodb';
import type { RateLimiter, RatePolicy } from './rate-limiter.js';
import { sharedWindows } from './shared-windows.js';
import { TokenBuckets } from './token-buckets.js';

export interface RateLimits {
  key: RateLimiter;
  /** For the `/v1` operations that need no key (sign-up). */
  address: RateLimiter;
}

/**
 * `local`: token buckets in this gateway's memory; `cluster` (the default): windows counted in the
 * database, one limit whatever the number of gateways.
 */
export type RateLimitPolicy = 'local' | 'cluster';

export function rateLimits(
  db: Db,
  policy: RateLimitPolicy | undefined,
  limits: Record<keyof RateLimits, RatePolicy>,
): RateLimits {
  const limiter = (name: keyof RateLimits): RateLimiter => {
    if (policy !== 'local') return sharedWindows(db, name, limits[name]);
    const buckets = new TokenBuckets(limits[name]);
    return { take: (key) => Promise.resolve(buckets.take(key)) };
  };
  return { key: limiter('key'), address: limiter('address') };
}
