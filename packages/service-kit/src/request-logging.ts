import type { Middleware } from 'koa';
import type { Logger } from './logger.js';

/** nginx's status for a client that closed its connection before the answer. */
const CLIENT_CLOSED_REQUEST = 499;

/**
 * One line per request, once the response is decided; 5xx at error level. A client that left
 * before its answer (499) is no fault: it is logged at info, so an error rate counts real faults.
 */
export function requestLogging(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    const failed = ctx.status >= 500;
    // Below the log level there is nothing to write, and no bound logger to make for it.
    if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
    const fields = {
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (failed) ctx.log.error(fields, 'request failed');
    else if (ctx.status === CLIENT_CLOSED_REQUEST) ctx.log.info(fields, 'client closed request');
    else ctx.log.info(fields, 'request completed');
  };
}
