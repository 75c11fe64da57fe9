import { setTimeout as sleep } from 'node:timers/promises';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import { AppError } from './app-error.js';

export type ReadinessCheck = () => Promise<unknown>;

// The reason is safe to show a client; the error is only logged.
type ReadinessFailure = { name: string; reason: string; error?: unknown };

/** Apps whose server is shutting down: `/ready` answers 503 and connections close. */
export const draining = new WeakSet<Koa>();

async function probe(
  name: string,
  check: ReadinessCheck,
  timeoutMs: number,
): Promise<ReadinessFailure | undefined> {
  const timer = new AbortController();
  const reason = `no answer within ${timeoutMs} ms`;
  const { signal } = timer;
  const timedOut = sleep(timeoutMs, { name, reason }, { signal });
  try {
    const checked = Promise.resolve().then(check);
    return await Promise.race([checked.then(() => undefined), timedOut]);
  } catch (error) {
    return { name, reason: 'unavailable', error };
  } finally {
    timer.abort();
  }
}

export interface HealthOptions {
  name: string;
  readiness: Record<string, ReadinessCheck>;
  // Only with ?deep=true: one dependency's blip must not take every replica out of rotation.
  dependencies?: Record<string, ReadinessCheck>;
  readinessTimeoutMs: number;
}

export function health(options: HealthOptions): Middleware {
  const { name, readiness, dependencies = {}, readinessTimeoutMs } = options;
  return async (ctx, next) => {
    if (ctx.path !== '/health' && ctx.path !== '/ready') {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      const headers = { Allow: 'GET, HEAD' };
      const message = `${ctx.method} is not allowed on ${ctx.path}`;
      throw new AppError('method_not_allowed', message, { headers });
    }
    ctx.routeTemplate = ctx.path;
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path === '/ready') {
      if (draining.has(ctx.app))
        throw new AppError('service_unavailable', `${name} is shutting down`);
      const checks =
        ctx.query.deep === 'true'
          ? { ...readiness, ...dependencies }
          : readiness;
      const outcomes = await Promise.all(
        Object.entries(checks).map(([part, check]) =>
          probe(part, check, readinessTimeoutMs),
        ),
      );
      const failures = outcomes.filter((outcome) => outcome !== undefined);
      if (failures.length > 0) {
        const details = failures.map(({ name: part, reason, error }) => {
          ctx.log.warn({ err: error, part, reason }, `${part} is not ready`);
          return { path: part, message: reason };
        });
        const parts = details.map((detail) => detail.path).join(', ');
        const message = `${name} is not ready: ${parts} unavailable`;
        throw new AppError('service_unavailable', message, { details });
      }
    }
    ctx.body = { status: 'ok' };
  };
}
