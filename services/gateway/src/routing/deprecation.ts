import {
  deprecationHeaders,
  successorPath,
  type DeprecationPolicy,
} from '@petstore/contract';
import type { GatewayMiddleware } from './gateway-state.js';

/**
 * A deprecated operation's headers, on every response to it, the gateway's errors included, with
 * a `Link` to its successor (the same request at its `successor`, e.g. `/v2/pets/:petId`).
 */
export function deprecation(policy: DeprecationPolicy): GatewayMiddleware {
  return async function deprecation(ctx, next) {
    const { operation } = ctx.state;
    if (operation?.route.deprecated) {
      const successor = successorPath(
        operation.metadata.successor ?? '',
        ctx.params ?? {},
      );
      ctx.set(deprecationHeaders(policy, successor));
    }
    await next();
  };
}
