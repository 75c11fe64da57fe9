import type { RouterContext, RouterMiddleware } from '@koa/router';
import { callerOf, inSpan, jsonBody, SpanKind } from '@petstore/service-kit';
import type { AppRoute } from '@ts-rest/core';
import { proxyRequest, type ProxyOptions } from '../proxy/proxy-request.js';
import type { Upstreams } from '../proxy/upstreams.js';
import type { GatewayMiddleware } from './gateway-router.js';

export interface ProxyOrHandleOptions {
  upstreams: Upstreams;
  proxy: ProxyOptions;
  /** The gateway's own operations: ts-rest-koa's route middleware, which validates and handles. */
  ownRoutes: Map<AppRoute, RouterMiddleware>;
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
}: ProxyOrHandleOptions): GatewayMiddleware {
  const readJsonBody = jsonBody({ limitBytes: proxy.bodyLimitBytes });
  return async function proxyOrHandle(ctx, next) {
    const { operation } = ctx.state;
    if (operation === undefined) {
      await next();
      return;
    }
    const { service } = operation.metadata;
    if (service !== 'gateway') {
      const upstream = upstreams[service];
      const attributes = {
        'http.request.method': ctx.method,
        'peer.service': upstream.name,
      };
      await inSpan(
        `${ctx.method} ${upstream.name}`,
        { kind: SpanKind.CLIENT, attributes },
        () => proxyRequest(ctx, upstream, callerOf(ctx), proxy),
      );
      return;
    }
    const handle = ownRoutes.get(operation.route);
    if (handle === undefined) {
      await next();
      return;
    }
    // `resolveRoute` ran the router, which set `ctx.params`.
    await readJsonBody(ctx, async () => {
      await handle(ctx as RouterContext, next);
    });
  };
}
