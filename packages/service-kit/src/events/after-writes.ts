import type { Middleware } from 'koa';

/**
 * Calls `then` after every write that succeeded (a write records its events in the documents it
 * changes): e.g. to wake the relay that hands them over.
 */
export function afterWrites(then: () => void): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.status < 300) then();
  };
}
