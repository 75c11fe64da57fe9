import type { Context } from 'koa';
import { AppError } from './app-error.js';
import type { Caller } from './internal-headers.js';

const callers = new WeakMap<Context, Caller>();

/** Remembers who the request comes from: the account of its key (gateway) or the gateway's word (services). */
export function setCaller(ctx: Context, caller: Caller): void {
  callers.set(ctx, caller);
}

/** The request's account; undefined on service-to-service calls and unauthenticated operations. */
export function callerOf(ctx: Context): Caller | undefined {
  return callers.get(ctx);
}

/** The request's account, for operations that only accounts may call. */
export function requireCaller(ctx: Context): Caller {
  const caller = callers.get(ctx);
  if (!caller) throw new AppError('unauthorized', 'this operation needs an account');
  return caller;
}

/** Refuses a customer: the gateway checks first, and a service checks again. */
export function requireAdmin(caller: Caller, action: string): void {
  if (caller.role !== 'admin') throw new AppError('forbidden', `only an admin may ${action}`);
}
