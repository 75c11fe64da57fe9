import {
  deprecationHeaders,
  RouteTable,
  type ContractOperation,
  type DeprecationPolicy,
} from '@petstore/contract';
import { AppError } from '@petstore/service-kit';
import type { Middleware } from 'koa';

/**
 * Marks every response of `route` as deprecated, errors of its validation included (so it runs in
 * front of the router); from the sunset instant on, responds 410 `gone` instead.
 */
export function deprecatedRoute(
  route: ContractOperation['route'],
  policy: DeprecationPolicy,
  now: () => Date,
): Middleware {
  const table = new RouteTable({ route });
  const headers = deprecationHeaders(policy);
  return async (ctx, next) => {
    if (table.resolve(ctx.method, ctx.path).kind === 'operation') {
      ctx.set(headers);
      if (now().getTime() >= policy.sunsetAt.getTime()) {
        throw new AppError(
          'gone',
          `[pets] ${route.method} ${route.path} was retired on ${policy.sunsetAt.toISOString()}; list pets with GET /v1/pets instead`,
          { headers },
        );
      }
    }
    await next();
  };
}
