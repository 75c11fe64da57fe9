import type { Router } from '@koa/router';
import type { GatewayMiddleware, GatewayState } from './gateway-state.js';

/**
 * The operation a request asks for, resolved once and stored on `ctx.state.operation` (with
 * `ctx.params` and `ctx.routeTemplate`) before the steps that read it. The one place that answers
 * a known path asked with another method: 405 with `Allow`, `OPTIONS` 204 with `Allow`
 * (ts-rest-koa's `contractRouter`). An unknown path goes on, with no operation, to the pages
 * outside the contract and 404.
 */
export function resolveRoute(router: Router<GatewayState>): GatewayMiddleware {
  // @koa/router types its middleware as needing `ctx.params` and `ctx.router`, which it sets.
  const dispatch = router.routes() as GatewayMiddleware;
  return async function resolveRoute(ctx, next) {
    // The router calls `next` itself for an unknown path only.
    await dispatch(ctx, next);
    if (ctx.state.operation !== undefined) await next();
  };
}
