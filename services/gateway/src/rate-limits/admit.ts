import { AppError, rateLimitRejections } from '@petstore/service-kit';
import type { Context } from 'koa';
import type { RateLimits } from './rate-limits.js';

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
