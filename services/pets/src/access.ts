import { AppError, requireCaller } from '@petstore/service-kit';
import type { Context } from 'koa';

/**
 * The gateway lets only admins reach catalogue writes; the service checks again, so a request
 * that reaches it some other way with a customer's identity is still refused.
 */
export function requireAdmin(ctx: Context, action: string): void {
  const caller = requireCaller(ctx);
  if (caller.role !== 'admin') {
    throw new AppError('forbidden', `[pets] only an admin may ${action}`);
  }
}
