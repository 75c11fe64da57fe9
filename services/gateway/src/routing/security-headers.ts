import { apiVersion } from '@petstore/contract';
import type { Middleware } from 'koa';

/** On every response: JSON for programs, nothing is cached, sniffed, framed or referred. */
export function securityHeaders({ https }: { https: boolean }): Middleware {
  const headers: Record<string, string> = {
    'API-Version': apiVersion,
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
  if (https) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return async (ctx, next) => {
    ctx.set(headers);
    await next();
  };
}
