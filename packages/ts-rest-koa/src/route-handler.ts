import type { IncomingHttpHeaders } from 'node:http';
import {
  isAppRoute,
  type AppRoute,
  type AppRouter,
  type HTTPStatusCode,
  type ServerInferRequest,
  type ServerInferResponses,
} from '@ts-rest/core';
import type { Context, DefaultState, ParameterizedContext } from 'koa';
import type { ValidatedRequest } from './validate-request.js';

declare module 'koa' {
  interface Request {
    /** Set by a body parser mounted before the router; the router validates it, never parses it. */
    body?: unknown;
  }
  interface ExtendableContext {
    /** The contract route the request matched, e.g. `/v1/pets/:petId`: for metrics and spans. */
    routeTemplate?: string;
  }
}

/** What a handler receives: the validated, coerced request parts plus the Koa context. */
export type RouteHandlerArgs<
  TRoute extends AppRoute,
  TState = DefaultState,
> = ServerInferRequest<TRoute, IncomingHttpHeaders> & {
  ctx: ParameterizedContext<TState>;
};

/** One of the responses the route declares; a status it does not declare does not compile. */
export type RouteResponse<TRoute extends AppRoute> = ServerInferResponses<
  TRoute,
  HTTPStatusCode,
  'force'
>;

export type RouteHandler<TRoute extends AppRoute, TState = DefaultState> = (
  args: RouteHandlerArgs<TRoute, TState>,
) => RouteResponse<TRoute> | Promise<RouteResponse<TRoute>>;

export type RouterImplementation<
  TContract extends AppRouter,
  TState = DefaultState,
> = {
  [TKey in keyof TContract]: TContract[TKey] extends AppRoute
    ? RouteHandler<TContract[TKey], TState>
    : TContract[TKey] extends AppRouter
      ? RouterImplementation<TContract[TKey], TState>
      : never;
};

/** A handler seen loosely: its types were checked where it was written. */
export type LooseHandler = (
  args: ValidatedRequest & { ctx: Context },
) => unknown;

/** Each route of a (nested) contract with its handler, failing fast on a missing one. */
export function bindRoutes(
  contract: AppRouter,
  implementation: unknown,
  prefix = '',
): [AppRoute, LooseHandler][] {
  return Object.entries(contract).flatMap(([key, entry]) => {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    const handler = (implementation as Record<string, unknown> | undefined)?.[
      key
    ];
    if (!isAppRoute(entry)) return bindRoutes(entry, handler, name);
    if (typeof handler !== 'function') {
      throw new TypeError(`[ts-rest-koa] no handler for route ${name}`);
    }
    return [[entry, handler as LooseHandler]];
  });
}
