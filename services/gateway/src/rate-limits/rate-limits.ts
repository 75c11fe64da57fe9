import { AppError, rateLimitRejections } from '@petstore/service-kit';
import type { Context } from 'koa';
import type { Db } from 'mongodb';
import { sharedWindows, type RatePolicy } from './shared-windows.js';

/**
 * Per account (all its keys share one), and per client address for the `/v1` operations that need
 * no key (sign-up).
 */
export type RateLimits = Record<
  'account' | 'address',
  ReturnType<typeof sharedWindows>
>;

/** One limit whatever the number of gateways: windows counted in the database they share. */
export function rateLimits(
  db: Db,
  limits: Record<keyof RateLimits, RatePolicy>,
): RateLimits {
  return {
    account: sharedWindows(db, 'account', limits.account),
    address: sharedWindows(db, 'address', limits.address),
  };
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
    throw new AppError(
      'rate_limited',
      `too many requests; retry in ${retryAfter} s`,
      {
        headers: { 'Retry-After': retryAfter },
      },
    );
  }
}
