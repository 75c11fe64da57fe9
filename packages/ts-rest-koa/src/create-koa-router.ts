import { RouteTable, type ContractOperation } from '@petstore/contract';
import type { AppRouter } from '@ts-rest/core';
import type { Context, DefaultState, Middleware } from 'koa';
import { MethodNotAllowedError } from './errors.js';
import { bindRoutes, type RouterImplementation } from './route-handler.js';
import { sendResponse, toHandlerResponse, validateResponse } from './response.js';
import { validateRequest } from './validate-request.js';

export interface KoaRouterOptions {
  /** Throw ResponseValidationError for a response the contract rejects; send the parsed body. */
  validateResponses?: boolean;
  /**
   * Runs once the operation is known and before the request is validated, so that what it sets
   * (headers) or throws holds for validation errors too: e.g. a deprecation or a role.
   */
  beforeValidation?: (ctx: Context, operation: ContractOperation) => void;
}

export interface KoaRouter<TState = DefaultState> {
  routes(): Middleware<TState>;
}

/**
 * Mounts a ts-rest contract on Koa, matching requests with the contract's RouteTable and validating
 * them with its schemas before the handler runs. Paths the contract knows answer other methods with
 * 405 (OPTIONS with 204); unknown paths are left to the next middleware.
 */
export function createKoaRouter<TContract extends AppRouter, TState = DefaultState>(
  contract: TContract,
  implementation: RouterImplementation<TContract, TState>,
  { validateResponses = false, beforeValidation }: KoaRouterOptions = {},
): KoaRouter<TState> {
  const table = new RouteTable(contract);
  const handlers = new Map(bindRoutes(contract, implementation));
  const middleware: Middleware<TState> = async (ctx, next) => {
    const resolution = table.resolve(ctx.method, ctx.path);
    if (resolution.kind === 'method_not_allowed') {
      // Set before throwing, so it survives an error middleware that only sets status and body.
      ctx.set('Allow', resolution.allow.join(', '));
      if (ctx.method !== 'OPTIONS') throw new MethodNotAllowedError(ctx.method, resolution.allow);
      ctx.status = 204;
      return;
    }
    const handler =
      resolution.kind === 'operation' ? handlers.get(resolution.operation.route) : undefined;
    if (resolution.kind === 'not_found' || handler === undefined) {
      await next();
      return;
    }
    const { route } = resolution.operation;
    ctx.routeTemplate = route.path;
    beforeValidation?.(ctx, resolution.operation);
    const request = validateRequest(route, {
      params: resolution.params,
      query: ctx.query,
      headers: ctx.headers,
      body: ctx.request.body,
    });
    const response = toHandlerResponse(route, await handler({ ...request, ctx }));
    sendResponse(ctx, route, validateResponses ? validateResponse(route, response) : response);
  };
  return { routes: () => middleware };
}
