import type { Middleware } from 'koa';
import type { Logger } from './logger.js';

/** nginx's status for a client that closed its connection before the answer. */
const CLIENT_CLOSED_REQUEST = 499;

/** Liveness and readiness probes, which an orchestrator (or `pnpm start`) asks every few seconds. */
const PROBE_PATHS = new Set(['/health', '/ready']);

/**
 * One line per request, once the response is decided; 5xx at error level, answered probes at
 * debug. A client that left before its answer (499) is no fault: it is logged at info, so an
 * error rate counts real faults.
 */
export function requestLogging(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    const failed = ctx.status >= 500;
    const level = failed ? 'error' : PROBE_PATHS.has(ctx.path) ? 'debug' : 'info';
    // Below the log level there is nothing to write, and no bound logger to make for it.
    if (!logger.isLevelEnabled(level)) return;
    const fields = {
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (failed) ctx.log.error(fields, 'request failed');
    else if (ctx.status === CLIENT_CLOSED_REQUEST) ctx.log.info(fields, 'client closed request');
    else ctx.log[level](fields, 'request completed');
  };
}
