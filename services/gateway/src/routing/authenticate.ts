import { setCaller } from '@petstore/service-kit';
import type { Authenticator } from '../auth/authentication.js';
import type { GatewayMiddleware } from './gateway-state.js';

/**
 * For an operation with `auth: 'key'`: the `Authorization` header's key to its account, or 401.
 * The gateway's own operations (keys, messages) read the key from the database rather than the
 * cache, so that a key revoked through another gateway can mint no key and send no message, even
 * while it is cached here.
 */
export function authenticate(authenticator: Authenticator): GatewayMiddleware {
  return async function authenticate(ctx, next) {
    const { operation } = ctx.state;
    if (operation?.metadata.auth === 'key') {
      const fresh = operation.metadata.service === 'gateway';
      const { caller } = await authenticator.authenticate(
        ctx.get('Authorization'),
        { fresh },
      );
      setCaller(ctx, caller);
    }
    await next();
  };
}
