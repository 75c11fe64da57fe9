import { timingSafeEqual } from 'node:crypto';
import { RoleSchema, type Role } from '@petstore/contract';
import type { Context, Middleware } from 'koa';
import { AppError } from './app-error.js';

/** Set by the gateway on every request it forwards; clients' copies are removed. */
export const internalHeaders = {
  token: 'x-internal-token',
  accountId: 'x-account-id',
  role: 'x-account-role',
  requestId: 'x-request-id',
} as const;

export interface Caller {
  accountId: string;
  role: Role;
}

// A property of the request's own context: cheaper per request than a WeakMap entry.
const callerKey = Symbol('caller');
type WithCaller = Context & { [callerKey]?: Caller };

export function setCaller(ctx: Context, caller: Caller): void {
  (ctx as WithCaller)[callerKey] = caller;
}

export const callerOf = (ctx: Context): Caller | undefined =>
  (ctx as WithCaller)[callerKey];

export function requireCaller(ctx: Context): Caller {
  const caller = callerOf(ctx);
  if (!caller)
    throw new AppError('unauthorized', 'this operation needs an account');
  return caller;
}

/** The gateway checks first, and a service checks again. */
export function requireAdmin(caller: Caller, action: string): void {
  if (caller.role !== 'admin')
    throw new AppError('forbidden', `only an admin may ${action}`);
}

export function trustGateway(internalToken: string): Middleware {
  const expected = Buffer.from(internalToken);
  return async (ctx, next) => {
    const given = Buffer.from(ctx.get(internalHeaders.token));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError(
        'unauthorized',
        'this service only answers the gateway',
        {
          headers: { 'WWW-Authenticate': 'Bearer realm="petstore"' },
        },
      );
    }
    const accountId = ctx.get(internalHeaders.accountId);
    const role = RoleSchema.safeParse(ctx.get(internalHeaders.role));
    if (accountId !== '' && role.success) {
      setCaller(ctx, { accountId, role: role.data });
    }
    await next();
  };
}
