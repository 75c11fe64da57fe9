import type { RouterMiddleware } from '@koa/router';
import { deprecationHeaders, successorPath, type DeprecationPolicy } from '@petstore/contract';
import {
  AppError,
  callerOf,
  inSpan,
  refuseBodyWhereNone,
  requireCaller,
  setCaller,
  SpanKind,
} from '@petstore/service-kit';
import type { Authenticator } from '../auth/authentication.js';
import { proxyRequest, type ProxyOptions } from '../proxy/proxy-request.js';
import { refuseEncodedBody } from '../proxy/request-body.js';
import type { Upstream } from '../proxy/upstreams.js';
import type { InFlight } from '../rate-limits/in-flight.js';
import { admit, type RateLimits } from '../rate-limits/rate-limits.js';

/** A step of a route: @koa/router route middleware. */
export type Step = RouterMiddleware;

/**
 * The deprecated operation's headers, on every response to it, the gateway's errors included,
 * with a `Link` to its successor (the same request at `successor`, e.g. `/v2/pets/:petId`).
 */
export function deprecation(policy: DeprecationPolicy, successor: string): Step {
  return async function deprecation(ctx, next) {
    ctx.set(deprecationHeaders(policy, successorPath(successor, ctx.params)));
    await next();
  };
}

/**
 * The `Authorization` header's key to its account, or 401. `fresh` reads the key from the database
 * rather than the cache, so that a key revoked through another gateway can mint no key and send
 * no message, even while it is cached here.
 */
export function authenticate(authenticator: Authenticator, { fresh }: { fresh: boolean }): Step {
  return async function authenticate(ctx, next) {
    const { caller } = await authenticator.authenticate(ctx.get('Authorization'), {
      fresh,
    });
    setCaller(ctx, caller);
    await next();
  };
}

/**
 * The account's rate limit, whichever of its keys is used, and its requests in flight (429);
 * after `authenticate`.
 */
export function rateLimitPerAccount(rateLimits: RateLimits, within: InFlight): Step {
  return async function rateLimitPerAccount(ctx, next) {
    const { accountId } = requireCaller(ctx);
    await admit(ctx, rateLimits, 'account', accountId);
    await within(accountId, next);
  };
}

/** The client address's rate limit, for `/v1` and `/v2` operations that need no key (sign-up). */
export function rateLimitPerAddress(rateLimits: RateLimits): Step {
  return async function rateLimitPerAddress(ctx, next) {
    await admit(ctx, rateLimits, 'address', ctx.ip);
    await next();
  };
}

/** `role: 'admin'` operations: 403 for a customer, after the rate limit so refusals count. */
export const requireAdmin: Step = async function requireAdmin(ctx, next) {
  if (callerOf(ctx)?.role !== 'admin') {
    throw new AppError('forbidden', 'this operation needs the admin role');
  }
  await next();
};

/**
 * 400 for a body on `GET`, `HEAD` or `DELETE`, as every service refuses it, once the router has
 * matched the method: another method on a known path stays 405 whatever its body.
 */
export const refuseBody: Step = refuseBodyWhereNone();

/** 415 for a body with a `Content-Encoding`: bodies are never decoded. */
export const refuseEncoding: Step = async function refuseEncoding(ctx, next) {
  refuseEncodedBody(ctx);
  await next();
};

/** Sends the request on to the service that owns the operation, its body read whole first. */
export function proxyTo(upstream: Upstream, options: ProxyOptions): Step {
  return async function proxy(ctx) {
    const attributes = { 'http.request.method': ctx.method, 'peer.service': upstream.name };
    await inSpan(`${ctx.method} ${upstream.name}`, { kind: SpanKind.CLIENT, attributes }, () =>
      proxyRequest(ctx, upstream, callerOf(ctx), options),
    );
  };
}
