import type { Db } from 'mongodb';
import type { RateLimiter, RatePolicy } from './rate-limiter.js';
import { sharedWindows } from './shared-windows.js';
import { TokenBuckets } from './token-buckets.js';

export interface RateLimits {
  /** Per API key, for every operation that needs one. */
  perKey: RateLimiter;
  /** Per client address, for the `/v1` operations that need no key (sign-up). */
  perAddress: RateLimiter;
}

/** Where requests are counted: this gateway's memory, or the database all gateways share. */
export type RateLimitPolicy = 'local' | 'cluster';

/**
 * The gateway's limits, by `policy` (as Kong names them): token buckets in memory (`local`), or
 * windows counted in the database (`cluster`, the default), so that any number of gateways
 * enforce one limit.
 */
export function rateLimits(
  {
    policy,
    perKey,
    perAddress,
  }: { policy?: RateLimitPolicy; perKey: RatePolicy; perAddress: RatePolicy },
  db: Db,
): RateLimits {
  const shared = (policy ?? 'cluster') === 'cluster';
  const limiter = (name: string, policy: RatePolicy): RateLimiter => {
    if (shared) return sharedWindows(db, name, policy);
    const buckets = new TokenBuckets(policy);
    return { take: (key) => Promise.resolve(buckets.take(key)) };
  };
  return { perKey: limiter('key', perKey), perAddress: limiter('address', perAddress) };
}
