import { AppError, callerOf } from '@petstore/service-kit';
import type { GatewayMiddleware } from './gateway-state.js';

/** `role: 'admin'` operations: 403 for a customer, after the rate limit so refusals count. */
export const authorize: GatewayMiddleware = async function authorize(
  ctx,
  next,
) {
  if (
    ctx.state.operation?.metadata.role === 'admin' &&
    callerOf(ctx)?.role !== 'admin'
  ) {
    throw new AppError('forbidden', 'this operation needs the admin role');
  }
  await next();
};
