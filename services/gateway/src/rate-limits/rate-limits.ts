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

/**
 * The gateway's limits: token buckets in memory when this gateway holds its database alone (the
 * embedded FerretDB serves one process), else windows shared through the database, so that any
 * number of gateways enforce one limit.
 */
export function rateLimits(
  { perKey, perAddress }: { perKey: RatePolicy; perAddress: RatePolicy },
  { db, singleProcess }: { db: Db; singleProcess: boolean },
): RateLimits {
  const limiter = (name: string, policy: RatePolicy): RateLimiter => {
    if (!singleProcess) return sharedWindows(db, name, policy);
    const buckets = new TokenBuckets(policy);
    return { take: (key) => Promise.resolve(buckets.take(key)) };
  };
  return { perKey: limiter('key', perKey), perAddress: limiter('address', perAddress) };
}
