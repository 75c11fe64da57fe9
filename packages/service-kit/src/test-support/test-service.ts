import { serveHttp } from '@petstore/testkit';
import type { Middleware } from 'koa';
import {
  createService,
  type RouterMiddleware,
  type ServiceOptions,
} from '../create-service.js';
import { captureLogs } from './captured-logs.js';

/** A service with the given routes, served on a free port, whose logs the test can read. */
export async function startTestService(
  routers: RouterMiddleware[],
  options: Partial<Omit<ServiceOptions, 'routers' | 'logger'>> = {},
) {
  const logs = captureLogs();
  const app = createService({
    name: 'test',
    logger: logs.logger,
    routers,
    ...options,
  });
  const served = await serveHttp(app.callback());
  return {
    url: served.url,
    logs,
    [Symbol.asyncDispose]: () => served[Symbol.asyncDispose](),
  };
}

/** A middleware answering `method path` with `handler`, passing everything else on. */
export function route(
  method: string,
  path: string,
  handler: Middleware,
): Middleware {
  return async (ctx, next) => {
    if (ctx.method === method && ctx.path === path) await handler(ctx, next);
    else await next();
  };
}
