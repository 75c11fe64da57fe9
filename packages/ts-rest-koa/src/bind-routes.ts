import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { Context } from 'koa';
import type { ValidatedRequest } from './validate-request.js';

/** A contract route with its handler, seen loosely: types were checked where the handler was written. */
export interface RouteBinding {
  /** Dotted key path in the contract, e.g. `books.getBook`. */
  name: string;
  route: AppRoute;
  handler: (args: ValidatedRequest & { ctx: Context }) => unknown;
}

/** Pairs every route of a (nested) contract with its handler, failing fast on a missing one. */
export function bindRoutes(
  contract: AppRouter,
  implementation: unknown,
  prefix = '',
): RouteBinding[] {
  return Object.entries(contract).flatMap(([key, entry]) => {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    const handler: unknown =
      typeof implementation === 'object' && implementation !== null
        ? (implementation as Record<string, unknown>)[key]
        : undefined;
    if (!isAppRoute(entry)) {
      return bindRoutes(entry, handler, name);
    }
    if (typeof handler !== 'function') {
      throw new TypeError(`[ts-rest-koa] no handler for route ${name}`);
    }
    return [{ name, route: entry, handler: handler as RouteBinding['handler'] }];
  });
}
