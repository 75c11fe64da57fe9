import { SpanKind } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import { httpServerDuration, metricsEnabled } from './metrics.js';
import { contextFrom, inSpan, tracingEnabled } from './tracing.js';

/**
 * The outermost middleware: a server span per request (continuing the caller's `traceparent`)
 * when tracing is on, and the request's duration by route template, method and status when
 * metrics are. The route is what the router matched (`ctx.routeTemplate`), never the raw path.
 */
export function serverTelemetry(): Middleware {
  return async (ctx, next) => {
    const tracing = tracingEnabled();
    const measuring = metricsEnabled();
    if (!tracing && !measuring) {
      await next();
      return;
    }
    const started = performance.now();
    const finish = () => {
      const route = ctx.routeTemplate ?? 'unmatched';
      if (measuring) {
        httpServerDuration.observe(
          {
            http_route: route,
            http_request_method: ctx.method,
            http_response_status_code: String(ctx.status),
          },
          (performance.now() - started) / 1000,
        );
      }
      return route;
    };
    if (!tracing) {
      try {
        await next();
      } finally {
        finish();
      }
      return;
    }
    await inSpan(
      ctx.method,
      {
        kind: SpanKind.SERVER,
        parent: contextFrom(ctx.req.headers),
        attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path },
      },
      async (span) => {
        try {
          await next();
        } finally {
          const route = finish();
          span.updateName(`${ctx.method} ${route}`);
          span.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
        }
      },
    );
  };
}
