import { requireCaller } from '@petstore/service-kit';
import { inFlight } from '../rate-limits/in-flight.js';
import { admit, type RateLimits } from '../rate-limits/rate-limits.js';
import type { GatewayMiddleware } from './gateway-state.js';

export interface RateLimitOptions {
  rateLimits: RateLimits;
  /** Requests of one account at a time in this gateway. */
  maxInFlightPerAccount: number;
}

/**
 * 429 over a limit. An operation with `auth: 'key'` counts against its account's limit, whichever
 * of its keys is used, and its requests in flight; a `/v1` or `/v2` operation without a key
 * (sign-up) against the client address's limit.
 */
export function rateLimit({
  rateLimits,
  maxInFlightPerAccount,
}: RateLimitOptions): GatewayMiddleware {
  const within = inFlight(maxInFlightPerAccount);
  return async function rateLimit(ctx, next) {
    const { operation } = ctx.state;
    if (operation?.metadata.auth === 'key') {
      const { accountId } = requireCaller(ctx);
      await admit(ctx, rateLimits, 'account', accountId);
      await within(accountId, next);
      return;
    }
    if (
      operation?.metadata.auth === 'none' &&
      operation.version !== undefined
    ) {
      await admit(ctx, rateLimits, 'address', ctx.ip);
    }
    await next();
  };
}
