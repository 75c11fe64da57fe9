import type { Middleware } from 'koa';

/** One line per request, once the response is decided; 5xx at error level. */
export function requestLogging(): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    const fields = {
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (ctx.status >= 500) ctx.log.error(fields, 'request failed');
    else ctx.log.info(fields, 'request completed');
  };
}
