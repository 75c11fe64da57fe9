import type { Layer, RouterMiddleware } from '@koa/router';
import { MethodNotAllowedError } from './errors.js';

/**
 * Middleware mounted on every contract path after its routes, so it only runs for a method none of
 * them serves: OPTIONS answers 204, anything else throws MethodNotAllowedError. `Allow` is set on the
 * context before throwing, so it survives an error middleware that only rewrites status and body.
 */
export function createMethodGuard<TState>(): RouterMiddleware<TState> {
  const guard: RouterMiddleware<TState> = (ctx) => {
    const allow = allowedMethods(ctx.matched ?? [], guard);
    ctx.set('Allow', allow.join(', '));
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    throw new MethodNotAllowedError(ctx.method, allow);
  };
  return guard;
}

/** Every method a route layer matching this path serves (guards excluded), plus OPTIONS. */
function allowedMethods<TState>(
  matched: Layer<TState>[],
  guard: RouterMiddleware<TState>,
): string[] {
  const methods = new Set(['OPTIONS']);
  for (const layer of matched) {
    if (!layer.stack.includes(guard)) {
      layer.methods.forEach((method) => methods.add(method));
    }
  }
  return [...methods].sort();
}
