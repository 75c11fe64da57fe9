import type { IncomingHttpHeaders } from 'node:http';
import type {
  AppRoute,
  AppRouter,
  HTTPStatusCode,
  ServerInferRequest,
  ServerInferResponses,
} from '@ts-rest/core';
import type { DefaultState, ParameterizedContext } from 'koa';

/** What a handler receives: the validated, coerced request parts plus the Koa context. */
export type RouteHandlerArgs<TRoute extends AppRoute, TState = DefaultState> = ServerInferRequest<
  TRoute,
  IncomingHttpHeaders
> & { ctx: ParameterizedContext<TState> };

/** One of the responses the route declares; a status it does not declare does not compile. */
export type RouteResponse<TRoute extends AppRoute> = ServerInferResponses<
  TRoute,
  HTTPStatusCode,
  'force'
>;

export type RouteHandler<TRoute extends AppRoute, TState = DefaultState> = (
  args: RouteHandlerArgs<TRoute, TState>,
) => RouteResponse<TRoute> | Promise<RouteResponse<TRoute>>;

/** One handler per route, nested like the contract. */
export type RouterImplementation<TContract extends AppRouter, TState = DefaultState> = {
  [TKey in keyof TContract]: TContract[TKey] extends AppRoute
    ? RouteHandler<TContract[TKey], TState>
    : TContract[TKey] extends AppRouter
      ? RouterImplementation<TContract[TKey], TState>
      : never;
};
