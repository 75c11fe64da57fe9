import { AppError, type Caller } from '@petstore/service-kit';

/** Admin-only operations answer 403 to a customer, although the gateway checks it first. */
export function requireAdmin(caller: Caller): void {
  if (caller.role !== 'admin') {
    throw new AppError('forbidden', 'this operation is for admins');
  }
}
