import { apiVersionOf } from '@petstore/contract';
import Koa, { type DefaultState, type Middleware } from 'koa';
import { AppError, errorMiddleware } from './app-error.js';
import { health, type ReadinessCheck } from './health.js';
import { hasBody, jsonBody } from './json-body.js';
import type { Logger } from './logger.js';
import { requestId, requestLogging } from './request-id.js';
import { serverTelemetry } from './telemetry/telemetry.js';
import { trustGateway } from './trust-gateway.js';

// @koa/router types `router.routes()` as needing `ctx.params` and `ctx.router`.
export type RouterMiddleware = Middleware<DefaultState, never>;

export interface ServiceOptions {
  name: string;
  logger: Logger;
  routers: RouterMiddleware[];
  /**
   * Before `/health`, `/ready`, the body parser and `refuseBodyWhereNone`, e.g. a proxy that
   * reads the body itself (it then refuses bodies where none belongs itself).
   */
  beforeBody?: Middleware[];
  readiness?: Record<string, ReadinessCheck>;
  dependencies?: Record<string, ReadinessCheck>;
  readinessTimeoutMs?: number;
  bodyLimitBytes?: number;
  internalToken?: string;
}

/**
 * 400 `malformed_request` for an HTTP/1.1 request without `Host` (RFC 9112 §3.2), with the
 * headers of the parser's own refusals, before any other middleware could add them.
 */
function requireHost(): Middleware {
  return async (ctx, next) => {
    if (ctx.req.httpVersion !== '1.0' && ctx.get('Host') === '') {
      const message = 'an HTTP/1.1 request must carry a Host header';
      const headers = {
        'API-Version': apiVersionOf(ctx.path),
        Connection: 'close',
      };
      throw new AppError('malformed_request', message, { headers });
    }
    await next();
  };
}

const WITHOUT_BODY = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * 400 for a body on `GET`, `HEAD` or `DELETE`: it has no meaning there (RFC 9110 §9.3), and a
 * proxy that forwarded it could be made to smuggle a second request.
 */
export function refuseBodyWhereNone(): Middleware {
  return async (ctx, next) => {
    if (WITHOUT_BODY.has(ctx.method) && hasBody(ctx)) {
      const message = `a ${ctx.method} request takes no body`;
      const details = [{ path: 'body', message: 'must be absent' }];
      throw new AppError('validation_failed', message, { details });
    }
    await next();
  };
}

export function createService(options: ServiceOptions): Koa {
  const {
    name,
    logger,
    routers,
    beforeBody = [],
    readiness = {},
    dependencies,
  } = options;
  const { readinessTimeoutMs = 1_000, bodyLimitBytes, internalToken } = options;
  const app = new Koa();
  // What the error middleware cannot catch (a broken response stream) is logged, not printed.
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    (ctx?.log ?? logger).error(
      { err: error },
      'error outside the error middleware',
    );
  });
  app.use(serverTelemetry());
  app.use(requestId(app, logger));
  app.use(requestLogging(logger));
  app.use(errorMiddleware());
  app.use(requireHost());
  for (const middleware of beforeBody) app.use(middleware);
  app.use(refuseBodyWhereNone());
  app.use(health({ name, readiness, dependencies, readinessTimeoutMs }));
  if (internalToken !== undefined) app.use(trustGateway(internalToken));
  app.use(jsonBody({ limitBytes: bodyLimitBytes }));
  for (const router of routers) app.use(router);
  app.use((ctx) => {
    throw new AppError(
      'route_not_found',
      `no operation for ${ctx.method} ${ctx.path}`,
    );
  });
  return app;
}
