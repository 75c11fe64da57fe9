import { AppError, type Caller, type Logger } from '@petstore/service-kit';

/** The request an operation serves: its id goes on to pets, its logger carries the id. */
export interface RequestScope {
  requestId: string;
  logger: Logger;
}

/** Admin-only operations answer 403 to a customer, although the gateway checks it first. */
export function requireAdmin(caller: Caller): void {
  if (caller.role !== 'admin') {
    throw new AppError('forbidden', 'this operation is for admins');
  }
}
