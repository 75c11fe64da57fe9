import type { Caller } from '@petstore/service-kit';
import { AppError } from '@petstore/service-kit';
import type { Context } from 'koa';

const callers = new WeakMap<Context, Caller>();

/** Remembers who the request's key belongs to, for the gateway's own handlers. */
export function setCaller(ctx: Context, caller: Caller): void {
  callers.set(ctx, caller);
}

export function callerOf(ctx: Context): Caller | undefined {
  return callers.get(ctx);
}

/** The caller of an operation that needs a key (authentication has run before any handler). */
export function requireCaller(ctx: Context): Caller {
  const caller = callers.get(ctx);
  if (!caller) throw new AppError('unauthorized', 'this operation needs an API key');
  return caller;
}
