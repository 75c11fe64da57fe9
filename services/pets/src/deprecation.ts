import { AppError } from '@petstore/service-kit';
import type { Middleware } from 'koa';

export interface DeprecationPolicy {
  /** When the operation was deprecated: `Deprecation: @<unix seconds>` (RFC 9745). */
  deprecatedAt: Date;
  /** When it stops working, then answering 410 `gone`: `Sunset: <HTTP-date>` (RFC 8594). */
  sunsetAt: Date;
  /** Where the deprecation is explained, relative to the gateway that serves `/docs`. */
  documentation: string;
}

/** The headers every answer of a deprecated operation carries, success and error alike. */
export function deprecationHeaders({
  deprecatedAt,
  sunsetAt,
  documentation,
}: DeprecationPolicy): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
    Sunset: sunsetAt.toUTCString(),
    Link: `<${documentation}>; rel="deprecation"; type="text/html"`,
  };
}

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
