import { deprecationHeaders, type DeprecationPolicy } from '@petstore/contract';
import { AppError } from '@petstore/service-kit';
import type { Middleware } from 'koa';

/**
 * `/v1/pets/:petId` as a pattern matching one path segment per parameter, and, as @koa/router
 * does by default, any case and a trailing slash.
 */
function pathPattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${escaped}/?$`, 'i');
}

/**
 * Marks every answer of `route` (a GET) as deprecated, errors included, so it runs before the
 * route's own validation; from the sunset instant on, answers 410 `gone` instead.
 */
export function deprecatedRoute(
  route: { method: string; path: string },
  policy: DeprecationPolicy,
  now: () => Date,
): Middleware {
  const pattern = pathPattern(route.path);
  const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
  const headers = deprecationHeaders(policy);
  return async (ctx, next) => {
    if (!methods.includes(ctx.method) || !pattern.test(ctx.path)) {
      await next();
      return;
    }
    ctx.set(headers);
    if (now().getTime() >= policy.sunsetAt.getTime()) {
      throw new AppError(
        'gone',
        `[pets] ${route.method} ${route.path} was retired on ${policy.sunsetAt.toISOString()}; list pets with GET /v1/pets instead`,
        { headers },
      );
    }
    await next();
  };
}
