// Rate limits: one per API key and one per client address, answered with RateLimit headers.
import { AppError, rateLimitRejections } from '@petstore/service-kit';
import type { Context } from 'koa';
import type { RateLimiter } from './rate-limiter.js';

/**
 * Counts the request against `key`'s limit: the answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset`; over the limit it is 429 `rate_limited` with
 * `Retry-After`.
 */
export async function admit(
  ctx: Context,
  limiter: RateLimiter,
  { limit, key }: { limit: 'key' | 'address'; key: string },
): Promise<void> {
  const admission = await limiter.take(key);
  ctx.set({
    'RateLimit-Limit': String(admission.limit),
    'RateLimit-Remaining': String(admission.remaining),
    'RateLimit-Reset': String(admission.resetSeconds),
  });
  if (!admission.allowed) {
    rateLimitRejections.inc({ limit });
    throw new AppError(
      'rate_limited',
      `too many requests; retry in ${admission.retryAfterSeconds} s`,
      { headers: { 'Retry-After': String(admission.retryAfterSeconds) } },
    );
  }
}
