import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { Logger } from './logger.js';

// What the service-kit middleware adds to every Koa context; loaded with the package index.
declare module 'koa' {
  interface ExtendableContext {
    requestId: string;
    log: Logger;
  }

  interface Request {
    body?: unknown;
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const requestLogger = Symbol('requestLogger');
type WithRequestLogger = Koa.Context & { [requestLogger]?: Logger };

// `ctx.log` is made on first use: a child logger serialises its bindings through the redaction,
// which a request that logs nothing should not pay for.
export function requestId(app: Koa, logger: Logger): Middleware {
  Object.defineProperty(app.context, 'log', {
    configurable: true,
    enumerable: true,
    get(this: WithRequestLogger): Logger {
      this[requestLogger] ??= logger.child({ requestId: this.requestId });
      return this[requestLogger];
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

/** nginx's status for a client that closed its connection before the response. */
const CLIENT_CLOSED_REQUEST = 499;
const PROBE_PATHS = new Set(['/health', '/ready']);

/** Probes are polled often: their requests log at debug. */
function levelOf(path: string): 'debug' | 'info' {
  return PROBE_PATHS.has(path) ? 'debug' : 'info';
}

// A client that left (499) is no fault: info, so that an error rate counts real faults.
export function requestLogging(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    const failed = ctx.status >= 500;
    const level = failed ? 'error' : levelOf(ctx.path);
    if (!logger.isLevelEnabled(level)) return;
    const fields = {
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (failed) ctx.log.error(fields, 'request failed');
    else if (ctx.status === CLIENT_CLOSED_REQUEST)
      ctx.log.info(fields, 'client closed request');
    else ctx.log[level](fields, 'request completed');
  };
}
