import type { Db } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { Admission, RateLimiter, RatePolicy } from './rate-limiter.js';

/** Where the shared counts live (`database/indexes.ts` makes its indexes). */
export const RATE_LIMITS_COLLECTION = 'rate_limits';

/**
 * One limit per key whatever the number of gateways: every gateway counts in the gateway
 * database, one atomic upsert per request (rate-limiter-flexible). A shared counter cannot refill
 * continuously, so the bucket becomes a fixed window of burst / rate seconds holding `burst`
 * requests: the same average rate and the same burst. A key over its limit is then refused from
 * memory until its window ends, costing no database command; if the database fails, each gateway
 * falls back to counting alone.
 */
export function sharedWindows(db: Db, name: string, { perSecond, burst }: RatePolicy): RateLimiter {
  const duration = Math.max(1, Math.ceil(burst / perSecond));
  const limiter = new RateLimiterMongo({
    storeClient: db,
    tableName: RATE_LIMITS_COLLECTION,
    keyPrefix: name,
    points: burst,
    duration,
    disableIndexesCreation: true,
    inMemoryBlockOnConsumed: burst,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points: burst, duration }),
  });
  const admission = (res: RateLimiterRes, allowed: boolean): Admission => {
    const resetSeconds = Math.ceil(res.msBeforeNext / 1000);
    return {
      allowed,
      limit: burst,
      remaining: res.remainingPoints,
      resetSeconds,
      retryAfterSeconds: Math.max(1, resetSeconds),
    };
  };
  return {
    async take(key) {
      try {
        return admission(await limiter.consume(key), true);
      } catch (refused) {
        if (refused instanceof RateLimiterRes) return admission(refused, false);
        throw refused;
      }
    },
  };
}
