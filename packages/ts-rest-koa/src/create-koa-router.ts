import { METHODS } from 'node:http';
import { Router, type RouterMiddleware } from '@koa/router';
import type { AppRouter } from '@ts-rest/core';
import type { DefaultState } from 'koa';
import { bindRoutes, type RouteBinding } from './bind-routes.js';
import './koa-request-body.js';
import './koa-route-template.js';
import { createMethodGuard } from './method-guard.js';
import type { RouterImplementation } from './route-handler.js';
import { toRouterPath } from './router-path.js';
import { sendResponse } from './send-response.js';
import { validateRequest } from './validate-request.js';
import { toHandlerResponse, validateResponse } from './validate-response.js';

export interface KoaRouterOptions {
  /**
   * Check every handler response against the contract: an undeclared status or a body its schema
   * rejects throws ResponseValidationError, and a valid body is sent as parsed. Off by default;
   * meant for tests and development.
   */
  validateResponses?: boolean;
}

/**
 * Mounts a ts-rest contract on an @koa/router Router: one route per contract route, validating the
 * request with the contract's schemas before the handler runs. Paths the contract knows answer other
 * methods with 405; unknown paths are left to the next middleware.
 */
export function createKoaRouter<TContract extends AppRouter, TState = DefaultState>(
  contract: TContract,
  implementation: RouterImplementation<TContract, TState>,
  options: KoaRouterOptions = {},
): Router<TState> {
  const router = new Router<TState>();
  const bindings = bindRoutes(contract, implementation);
  for (const binding of bindings) {
    router.register(
      toRouterPath(binding.route.path),
      [binding.route.method],
      routeMiddleware<TState>(binding, options),
      { name: binding.name },
    );
  }
  const guard = createMethodGuard<TState>();
  for (const path of new Set(bindings.map(({ route }) => toRouterPath(route.path)))) {
    router.register(path, METHODS, guard);
  }
  return router;
}

function routeMiddleware<TState>(
  { route, handler }: RouteBinding,
  { validateResponses = false }: KoaRouterOptions,
): RouterMiddleware<TState> {
  return async (ctx) => {
    ctx.routeTemplate = route.path;
    const request = validateRequest(route, {
      params: ctx.params,
      query: ctx.query,
      headers: ctx.headers,
      body: ctx.request.body,
    });
    const result: unknown = await handler({ ...request, ctx });
    const response = toHandlerResponse(route, result);
    sendResponse(ctx, route, validateResponses ? validateResponse(route, response) : response);
  };
}
