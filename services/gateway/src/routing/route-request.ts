import { AppError, inSpan, setCaller, SpanKind, type Caller } from '@petstore/service-kit';
import type { Middleware } from 'koa';
import type { Authenticator } from '../auth/authentication.js';
import { proxyRequest, type ProxyOptions } from '../proxy/proxy-request.js';
import { refuseEncodedBody } from '../proxy/request-body.js';
import { admit, type RateLimits } from '../rate-limits/rate-limits.js';
import type { RouteTable } from '@petstore/contract';
import type { Upstreams } from '../proxy/upstreams.js';

export interface RouteRequestOptions {
  routes: RouteTable;
  /** The headers of every response to a deprecated operation, errors included. */
  deprecation: Record<string, string>;
  authenticator: Authenticator;
  rateLimits: RateLimits;
  upstreams: Upstreams;
  proxy: ProxyOptions;
}

/**
 * What every request meets first, in order: its operation (404 falls through, 405), the key (401)
 * and its rate limit (429), the role (403), an encoded body (415); then pets and store operations
 * are proxied, and the gateway's own continue to the body parser and their handlers.
 */
export function routeRequest(deps: RouteRequestOptions): Middleware {
  const { routes, deprecation, authenticator, rateLimits, upstreams, proxy } = deps;
  return async (ctx, next) => {
    const resolution = routes.resolve(ctx.method, ctx.path);
    if (resolution.kind === 'not_found') {
      await next();
      return;
    }
    if (resolution.kind === 'method_not_allowed') {
      const allow = resolution.allow.join(', ');
      ctx.set('Allow', allow);
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        return;
      }
      throw new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`, {
        headers: { Allow: allow },
      });
    }

    const { metadata, route } = resolution.operation;
    ctx.routeTemplate = route.path;
    if (route.deprecated) ctx.set(deprecation);
    if (metadata.auth === 'internal') {
      await next();
      return;
    }
    let caller: Caller | undefined;
    if (metadata.auth === 'key') {
      // A key revoked through another gateway, still cached here, may not manage keys or messages.
      const authenticated = await authenticator.authenticate(ctx.get('Authorization'), {
        fresh: metadata.service === 'gateway',
      });
      caller = authenticated.caller;
      await admit(ctx, rateLimits, 'key', authenticated.keyId);
      if (metadata.role === 'admin' && caller.role !== 'admin') {
        throw new AppError('forbidden', 'this operation needs the admin role');
      }
      setCaller(ctx, caller);
    } else if (ctx.path.startsWith('/v1/')) {
      await admit(ctx, rateLimits, 'address', ctx.ip);
    }
    refuseEncodedBody(ctx);

    if (metadata.service === 'gateway') {
      await next();
      return;
    }
    const upstream = upstreams[metadata.service];
    const attributes = { 'http.request.method': ctx.method, 'peer.service': upstream.name };
    await inSpan(`${ctx.method} ${upstream.name}`, { kind: SpanKind.CLIENT, attributes }, () =>
      proxyRequest(ctx, upstream, caller, proxy),
    );
  };
}
