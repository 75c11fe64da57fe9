// Rate limits: a token bucket per API key and per client address, answered with RateLimit headers.
import { AppError } from '@petstore/service-kit';
import type { Context } from 'koa';
import type { TokenBuckets } from './token-buckets.js';

/**
 * Takes a token from `key`'s bucket: the answer carries `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset`; without a token it is 429 `rate_limited` with `Retry-After`.
 */
export function admit(ctx: Context, buckets: TokenBuckets, key: string): void {
  const admission = buckets.take(key);
  ctx.set({
    'RateLimit-Limit': String(admission.limit),
    'RateLimit-Remaining': String(admission.remaining),
    'RateLimit-Reset': String(admission.resetSeconds),
  });
  if (!admission.allowed) {
    throw new AppError(
      'rate_limited',
      `too many requests; retry in ${admission.retryAfterSeconds} s`,
      { headers: { 'Retry-After': String(admission.retryAfterSeconds) } },
    );
  }
}
