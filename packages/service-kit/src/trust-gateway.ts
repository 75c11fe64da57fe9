import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { AppError } from './app-error.js';
import { setCaller } from './caller.js';
import { internalHeaders, type Caller } from './internal-headers.js';

function sameSecret(given: string, expected: Buffer): boolean {
  const candidate = Buffer.from(given);
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

function callerFrom(accountId: string, role: string): Caller | undefined {
  if (accountId === '' || (role !== 'customer' && role !== 'admin')) return undefined;
  return { accountId, role };
}

/**
 * Accepts a request only with the configured internal token (compared in constant time), and
 * takes the caller's identity only from the headers the gateway sets next to it.
 */
export function trustGateway(internalToken: string): Middleware {
  const expected = Buffer.from(internalToken);
  return async (ctx, next) => {
    if (!sameSecret(ctx.get(internalHeaders.token), expected)) {
      throw new AppError('unauthorized', 'this service only answers the gateway', {
        headers: { 'WWW-Authenticate': 'Bearer realm="petstore"' },
      });
    }
    const caller = callerFrom(ctx.get(internalHeaders.accountId), ctx.get(internalHeaders.role));
    if (caller) setCaller(ctx, caller);
    await next();
  };
}
