import type { ContractOperation } from '@petstore/contract';
import type { Middleware } from 'koa';

/** What `resolveRoute` stores once on `ctx.state`: the operation a request asks for, if any. */
export interface GatewayState {
  operation?: ContractOperation;
}

/** A step of the gateway's pipeline: after `resolveRoute`, `ctx.params` are its operation's. */
export type GatewayMiddleware = Middleware<
  GatewayState,
  { params?: Record<string, string> }
>;
