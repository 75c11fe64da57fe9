import { apiVersionOf } from '@petstore/contract';
import type { Middleware } from 'koa';

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
