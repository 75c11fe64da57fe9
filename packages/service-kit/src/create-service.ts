import Koa, { type DefaultState, type Middleware } from 'koa';
import { errorMiddleware } from './error-middleware.js';
import { health } from './health.js';
import { jsonBody } from './json-body.js';
import type { Logger } from './logger.js';
import type { ReadinessCheck } from './readiness.js';
import { requestId } from './request-id.js';
import { requestLogging } from './request-logging.js';
import { routeNotFound } from './route-not-found.js';
import { serverTelemetry } from './telemetry/server-telemetry.js';
import { trustGateway } from './trust-gateway.js';

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
  /**
   * Mounted in order right after the error middleware, before `/health`, `/ready` and the JSON
   * body parser: what every request passes through (headers every answer carries) and what may
   * answer with the request body unread (a proxy that streams it). Errors it throws get the
   * Error shape. Default: none.
   */
  beforeBody?: Middleware[];
  /** What `/ready` asks, by name, e.g. `{ database: () => db.command({ ping: 1 }) }`. */
  readiness?: Record<string, ReadinessCheck>;
  /** What only `/ready?deep=true` asks as well: the services this one calls. */
  dependencies?: Record<string, ReadinessCheck>;
  readinessTimeoutMs?: number;
  bodyLimitBytes?: number;
  /** When set, every route but `/health` and `/ready` answers only requests carrying it. */
  internalToken?: string;
}

/**
 * Builds the service's Koa app (it never listens). Middleware, outermost first:
 * telemetry (a server span, the request's duration), request id, request logging, errors, beforeBody, /health and /ready, gateway trust, JSON body, routers,
 * 404.
 */
export function createService({
  name,
  logger,
  routers,
  beforeBody = [],
  readiness = {},
  dependencies,
  readinessTimeoutMs = 1_000,
  bodyLimitBytes,
  internalToken,
}: ServiceOptions): Koa {
  const app = new Koa();
  // Errors are answered by errorMiddleware; what still reaches Koa (e.g. a broken response
  // stream) is logged instead of printed to stderr.
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    (ctx?.log ?? logger).error({ err: error }, 'error outside the error middleware');
  });

  app.use(serverTelemetry());
  app.use(requestId(app, logger));
  app.use(requestLogging(logger));
  app.use(errorMiddleware());
  for (const middleware of beforeBody) app.use(middleware);
  app.use(health({ name, readiness, dependencies, readinessTimeoutMs }));
  if (internalToken !== undefined) app.use(trustGateway(internalToken));
  app.use(jsonBody({ limitBytes: bodyLimitBytes }));
  for (const router of routers) app.use(router);
  app.use(routeNotFound());
  return app;
}
