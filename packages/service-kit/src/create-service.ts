import Koa, { type DefaultState, type Middleware } from 'koa';
import { errorMiddleware } from './error-middleware.js';
import { health } from './health.js';
import { jsonBody } from './json-body.js';
import type { Logger } from './logger.js';
import type { ReadinessCheck } from './readiness.js';
import { requestId } from './request-id.js';
import { requestLogging } from './request-logging.js';
import { routeNotFound } from './route-not-found.js';

/**
 * Any Koa middleware, whatever it expects of the context. @koa/router types `router.routes()` as
 * needing `ctx.params` and `ctx.router`, which it sets itself, so plain `Middleware` rejects it.
 */
export type RouterMiddleware = Middleware<DefaultState, never>;

export interface ServiceOptions {
  /** The service's name, e.g. `pets`; shows in readiness failures. */
  name: string;
  logger: Logger;
  /** Mounted in order after `/health` and `/ready`, e.g. each router's middleware. */
  routers: RouterMiddleware[];
  /** What `/ready` asks, by name, e.g. `{ database: () => db.command({ ping: 1 }) }`. */
  readiness?: Record<string, ReadinessCheck>;
  readinessTimeoutMs?: number;
  bodyLimitBytes?: number;
}

/**
 * Builds the service's Koa app (it never listens). Middleware, outermost first:
 * request id, request logging, errors, JSON body, /health and /ready, routers, 404.
 */
export function createService({
  name,
  logger,
  routers,
  readiness = {},
  readinessTimeoutMs = 1_000,
  bodyLimitBytes,
}: ServiceOptions): Koa {
  const app = new Koa();
  // Errors are answered by errorMiddleware; what still reaches Koa (e.g. a broken response
  // stream) is logged instead of printed to stderr.
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    (ctx?.log ?? logger).error({ err: error }, 'error outside the error middleware');
  });

  app.use(requestId(logger));
  app.use(requestLogging());
  app.use(errorMiddleware());
  app.use(jsonBody({ limitBytes: bodyLimitBytes }));
  app.use(health({ name, readiness, readinessTimeoutMs }));
  for (const router of routers) app.use(router);
  app.use(routeNotFound());
  return app;
}
