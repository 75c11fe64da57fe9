import type { Router, RouterMiddleware } from '@koa/router';
import { contractOperations, type ContractOperation } from '@petstore/contract';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import type { DefaultState, Middleware } from 'koa';
import { addRoute, contractRouter } from './contract-router.js';
import { bindRoutes, type RouterImplementation } from './route-handler.js';
import {
  sendResponse,
  toHandlerResponse,
  validateResponse,
} from './response.js';
import { validateRequest } from './validate-request.js';

export interface RouteHandlerOptions {
  /** Throw ResponseValidationError for a response the contract rejects; send the parsed body. */
  validateResponses?: boolean;
}

export interface KoaRouterOptions<
  TState = DefaultState,
> extends RouteHandlerOptions {
  /**
   * Route middleware for an operation, run once it matched and before its request is validated,
   * so that what it sets (headers) or throws applies to validation errors too: e.g. a deprecation
   * or a role.
   */
  before?: (operation: ContractOperation) => Middleware<TState>[];
}

/**
 * Mounts a ts-rest contract on a @koa/router Router, as ts-rest's Express and Fastify adapters
 * mount theirs: one route per operation, whose middleware validates the request with the
 * operation's schemas and runs its handler. Paths the contract knows answer other methods with 405
 * (OPTIONS with 204); unknown paths are left to the next middleware.
 */
export function createKoaRouter<
  TContract extends AppRouter,
  TState = DefaultState,
>(
  contract: TContract,
  implementation: RouterImplementation<TContract, TState>,
  { before, ...options }: KoaRouterOptions<TState> = {},
): Router<TState> {
  const router = contractRouter<TState>();
  const handlers = routeHandlers(contract, implementation, options);
  for (const operation of contractOperations(contract)) {
    const handler = handlers.get(operation.route);
    if (handler)
      addRoute(router, operation, [...(before?.(operation) ?? []), handler]);
  }
  return router;
}

/**
 * The route middleware of each route of a contract: it validates the request the router matched
 * (path parameters from `ctx.params`) and sends what the handler returns. Fails fast when the
 * implementation misses a handler.
 */
export function routeHandlers<
  TContract extends AppRouter,
  TState = DefaultState,
>(
  contract: TContract,
  implementation: RouterImplementation<TContract, TState>,
  { validateResponses = false }: RouteHandlerOptions = {},
): Map<AppRoute, RouterMiddleware<TState>> {
  return new Map(
    bindRoutes(contract, implementation).map(([route, handler]) => [
      route,
      async function validateAndHandle(ctx) {
        const request = validateRequest(route, {
          params: ctx.params,
          query: ctx.query,
          headers: ctx.headers,
          body: ctx.request.body,
        });
        const response = toHandlerResponse(
          route,
          await handler({ ...request, ctx }),
        );
        sendResponse(
          ctx,
          route,
          validateResponses ? validateResponse(route, response) : response,
        );
      },
    ]),
  );
}
