import {
  contract,
  contractOperations,
  internalContract,
  type ContractOperation,
} from '@petstore/contract';
import { addRoute, contractRouter } from '@petstore/ts-rest-koa';
import type { Router } from '@koa/router';
import type { GatewayMiddleware, GatewayState } from './gateway-state.js';

/** Every public operation, and the internal ones the gateway itself answers (`/internal/events`). */
function gatewayOperations(): ContractOperation[] {
  return [
    ...contractOperations(contract),
    ...contractOperations(internalContract).filter(
      ({ metadata }) => metadata.service === 'gateway',
    ),
  ];
}

/**
 * Every operation the gateway answers, proxied or its own, on one @koa/router Router. A route only
 * stores its operation on `ctx.state` and stops, so that the first matching route answers; the
 * steps that follow `resolveRoute` read it from there.
 */
export function gatewayRouter(): Router<GatewayState> {
  const router = contractRouter<GatewayState>();
  for (const operation of gatewayOperations()) {
    const storeOperation: GatewayMiddleware = (ctx) => {
      ctx.state.operation = operation;
    };
    addRoute(router, operation, [storeOperation]);
  }
  return router;
}
