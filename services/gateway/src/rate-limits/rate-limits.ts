import { AppError, rateLimitRejections } from '@petstore/service-kit';
import type { Context } from 'koa';
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

/** Counts the request against `key`'s limit and sets the `RateLimit-*` headers; 429 over it. */
export async function admit(
  ctx: Context,
  limits: RateLimits,
  limit: keyof RateLimits,
  key: string,
): Promise<void> {
  const admission = await limits[limit].take(key);
  ctx.set({
    'RateLimit-Limit': String(admission.limit),
    'RateLimit-Remaining': String(admission.remaining),
    'RateLimit-Reset': String(admission.resetSeconds),
  });
  if (!admission.allowed) {
    rateLimitRejections.inc({ limit });
    const retryAfter = String(admission.retryAfterSeconds);
    throw new AppError('rate_limited', `too many requests; retry in ${retryAfter} s`, {
      headers: { 'Retry-After': retryAfter },
    });
  }
}
