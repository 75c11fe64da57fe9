import {
  apiVersionOf,
  contract,
  contractOperations,
  deprecationHeaders,
  internalContract,
  successorPath,
  type ContractOperation,
  type DeprecationPolicy,
} from '@petstore/contract';
import {
  AppError,
  callerOf,
  hasBody,
  inSpan,
  jsonBody,
  rateLimitRejections,
  requireCaller,
  setCaller,
  SpanKind,
} from '@petstore/service-kit';
import { addRoute, contractRouter } from '@petstore/ts-rest-koa';
import type { Router, RouterContext, RouterMiddleware } from '@koa/router';
import type { AppRoute } from '@ts-rest/core';
import type { Context, Middleware } from 'koa';
import type { Authenticator } from '../auth/authentication.js';
import { proxyRequest, type ProxyOptions } from '../proxy/proxy-request.js';
import type { Upstreams } from '../proxy/upstreams.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';

/** What `resolveRoute` stores once on `ctx.state`: the operation a request asks for, if any. */
export interface GatewayState {
  operation?: ContractOperation;
}

/** A step of the gateway's pipeline: after `resolveRoute`, `ctx.params` are its operation's. */
export type GatewayMiddleware = Middleware<
  GatewayState,
  { params?: Record<string, string> }
>;

/**
 * Every public operation, and the internal ones the gateway itself answers (`/internal/events`),
 * on one @koa/router Router. A route only stores its operation on `ctx.state` and stops, so that
 * the first matching route answers; the steps that follow `resolveRoute` read it from there.
 */
export function gatewayRouter(): Router<GatewayState> {
  const router = contractRouter<GatewayState>();
  const operations = [
    ...contractOperations(contract),
    ...contractOperations(internalContract).filter(
      ({ metadata }) => metadata.service === 'gateway',
    ),
  ];
  for (const operation of operations) {
    addRoute(router, operation, [
      (ctx: { state: GatewayState }) => {
        ctx.state.operation = operation;
      },
    ]);
  }
  return router;
}

/**
 * The operation a request asks for, resolved once (with `ctx.params` and `ctx.routeTemplate`)
 * before the steps that read it. The one place that answers a known path asked with another
 * method: 405 with `Allow`, `OPTIONS` 204 with `Allow` (ts-rest-koa's `contractRouter`). An
 * unknown path goes on, with no operation, to the pages outside the contract and 404.
 */
export function resolveRoute(router: Router<GatewayState>): GatewayMiddleware {
  // @koa/router types its middleware as needing `ctx.params` and `ctx.router`, which it sets.
  const dispatch = router.routes() as GatewayMiddleware;
  return async function resolveRoute(ctx, next) {
    // The router calls `next` itself for an unknown path only.
    await dispatch(ctx, next);
    if (ctx.state.operation !== undefined) await next();
  };
}

/**
 * On every response: the version that answers (`API-Version` by the path's version, the current
 * one outside them); JSON for programs, nothing is cached, sniffed, framed or referred.
 */
export function securityHeaders({ https }: { https: boolean }): Middleware {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
  if (https)
    headers['Strict-Transport-Security'] =
      'max-age=31536000; includeSubDomains';
  return async function securityHeaders(ctx, next) {
    ctx.set(headers);
    ctx.set('API-Version', apiVersionOf(ctx.path));
    await next();
  };
}

/** API.md's cap. Node keeps 2,000 and drops the rest unseen: the gateway's own among them. */
const MAX_HEADERS = 100;

export const refuseTooManyHeaders: Middleware = async function refuse(
  ctx,
  next,
) {
  if (ctx.req.rawHeaders.length / 2 > MAX_HEADERS) {
    throw new AppError(
      'headers_too_large',
      `a request may carry at most ${MAX_HEADERS} headers`,
    );
  }
  await next();
};

/**
 * A deprecated operation's headers, on every response to it, the gateway's errors included, with
 * a `Link` to its successor (the same request at its `successor`, e.g. `/v2/pets/:petId`).
 */
export function deprecation(policy: DeprecationPolicy): GatewayMiddleware {
  return async function deprecation(ctx, next) {
    const { operation } = ctx.state;
    if (operation?.route.deprecated) {
      const successor = successorPath(
        operation.metadata.successor ?? '',
        ctx.params ?? {},
      );
      ctx.set(deprecationHeaders(policy, successor));
    }
    await next();
  };
}

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
      const authorization = ctx.get('Authorization');
      setCaller(
        ctx,
        await authenticator.authenticate(authorization, { fresh }),
      );
    }
    await next();
  };
}

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

/**
 * 415 (RFC 9110 §15.5.16) for a body with a `Content-Encoding` to an operation of the API: bodies
 * are small and never decoded, so no small body can decompress into a large one.
 */
export const refuseEncoding: GatewayMiddleware = async function refuseEncoding(
  ctx,
  next,
) {
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (
    ctx.state.operation !== undefined &&
    ctx.state.operation.metadata.auth !== 'internal' &&
    !['', 'identity'].includes(encoding) &&
    hasBody(ctx)
  ) {
    throw new AppError(
      'unsupported_content_encoding',
      `a request body must not be encoded (Content-Encoding: ${encoding}); send it as plain JSON`,
      { headers: { 'Accept-Encoding': 'identity' } },
    );
  }
  await next();
};

function tooMany(message: string, retryAfter: string): AppError {
  return new AppError('rate_limited', message, {
    headers: { 'Retry-After': retryAfter },
  });
}

/**
 * 429 over a limit, with the `RateLimit-*` headers. An operation with `auth: 'key'` counts
 * against its account's limit, whichever of its keys is used, and against at most
 * `maxInFlightPerAccount` requests of the account at a time in this gateway (so that an
 * account's slow or stuck requests use up its own share of the services, never another's); a
 * `/v1` or `/v2` operation without a key (sign-up) against the client address's limit.
 */
export function rateLimit({
  rateLimits,
  maxInFlightPerAccount: max,
}: {
  rateLimits: RateLimits;
  maxInFlightPerAccount: number;
}): GatewayMiddleware {
  const inFlight = new Map<string, number>();
  const admit = async (ctx: Context, limit: keyof RateLimits, key: string) => {
    const admission = await rateLimits[limit](key);
    ctx.set({
      'RateLimit-Limit': String(admission.limit),
      'RateLimit-Remaining': String(admission.remaining),
      'RateLimit-Reset': String(admission.resetSeconds),
    });
    if (admission.allowed) return;
    rateLimitRejections.inc({ limit });
    const retryAfter = String(Math.max(1, admission.resetSeconds));
    throw tooMany(`too many requests; retry in ${retryAfter} s`, retryAfter);
  };
  return async function rateLimit(ctx, next) {
    const { operation } = ctx.state;
    if (operation?.metadata.auth === 'none' && operation.version)
      await admit(ctx, 'address', ctx.ip);
    if (operation?.metadata.auth !== 'key') {
      await next();
      return;
    }
    const key = requireCaller(ctx).accountId;
    await admit(ctx, 'account', key);
    const count = inFlight.get(key) ?? 0;
    if (count >= max) {
      rateLimitRejections.inc({ limit: 'in_flight' });
      throw tooMany(`at most ${max} requests of an account at a time`, '1');
    }
    inFlight.set(key, count + 1);
    try {
      await next();
    } finally {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left === 0) inFlight.delete(key);
      else inFlight.set(key, left);
    }
  };
}

/**
 * The last step of an operation: pets and store operations are sent on to their service, the body
 * read whole first; the gateway's own read their JSON body and run their handler. `/health` and
 * `/ready` (no handler here) and unknown paths go on to service-kit's health middleware, the pages
 * and 404.
 */
export function proxyOrHandle({
  upstreams,
  proxy,
  ownRoutes,
}: {
  upstreams: Upstreams;
  proxy: ProxyOptions;
  /** The gateway's own operations: ts-rest-koa's route middleware, which validates and handles. */
  ownRoutes: Map<AppRoute, RouterMiddleware>;
}): GatewayMiddleware {
  const readJsonBody = jsonBody({ limitBytes: proxy.bodyLimitBytes });
  return async function proxyOrHandle(ctx, next) {
    const { operation } = ctx.state;
    const service = operation?.metadata.service;
    if (service && service !== 'gateway') {
      const attributes = {
        'http.request.method': ctx.method,
        'peer.service': service,
      };
      await inSpan(
        `${ctx.method} ${service}`,
        { kind: SpanKind.CLIENT, attributes },
        () => proxyRequest(ctx, upstreams[service], proxy),
      );
      return;
    }
    const handle = operation && ownRoutes.get(operation.route);
    if (handle === undefined) {
      await next();
      return;
    }
    await readJsonBody(ctx, async () => {
      await handle(ctx as RouterContext, next);
    });
  };
}
