import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import './koa-context.js';
import type { Logger } from './logger.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const requestLogger = Symbol('requestLogger');

type WithRequestLogger = Koa.Context & { [requestLogger]?: Logger };

/**
 * Gives the request an id, echoes it as `X-Request-Id`, and makes `ctx.log` the app's logger
 * bound to it. The bound (child) logger is made on first use: making one serialises its bindings
 * through the redaction, and a request that logs nothing (a success below the log level) should
 * not pay for it.
 */
export function requestId(app: Koa, logger: Logger): Middleware {
  Object.defineProperty(app.context, 'log', {
    configurable: true,
    enumerable: true,
    get(this: WithRequestLogger): Logger {
      return (this[requestLogger] ??= logger.child({ requestId: this.requestId }));
    },
    set(this: WithRequestLogger, bound: Logger) {
      this[requestLogger] = bound;
    },
  });
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.requestId);
    await next();
  };
}
