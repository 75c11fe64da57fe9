import type { Middleware } from 'koa';
import { AppError } from './app-error.js';
import { isDraining } from './draining.js';
import { runReadinessChecks, type ReadinessCheck } from './readiness.js';

export interface HealthOptions {
  /** Names the service in the message of a 503 from `/ready`. */
  name: string;
  readiness: Record<string, ReadinessCheck>;
  /**
   * What the service calls but can serve without for a while (another service): asked only by
   * `/ready?deep=true`, so that one dependency's blip does not take every replica out of rotation.
   */
  dependencies?: Record<string, ReadinessCheck>;
  readinessTimeoutMs: number;
}

/**
 * `GET /health`: the process is up. `GET /ready`: every readiness check answered in time (with
 * `?deep=true` every dependency too), else 503 `service_unavailable` naming each part that did not.
 */
export function health({
  name,
  readiness,
  dependencies = {},
  readinessTimeoutMs,
}: HealthOptions): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/health' && ctx.path !== '/ready') {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`, {
        headers: { Allow: 'GET, HEAD' },
      });
    }
    ctx.routeTemplate = ctx.path;
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path === '/ready') {
      if (isDraining(ctx.app)) {
        throw new AppError('service_unavailable', `${name} is shutting down`);
      }
      const checks = ctx.query.deep === 'true' ? { ...readiness, ...dependencies } : readiness;
      const failures = await runReadinessChecks(checks, readinessTimeoutMs);
      if (failures.length > 0) {
        for (const { name: part, reason, error } of failures) {
          ctx.log.warn({ err: error, part, reason }, `${part} is not ready`);
        }
        const parts = failures.map((failure) => failure.name).join(', ');
        throw new AppError('service_unavailable', `${name} is not ready: ${parts} unavailable`, {
          details: failures.map(({ name: part, reason }) => ({ path: part, message: reason })),
        });
      }
    }
    ctx.body = { status: 'ok' };
  };
}
