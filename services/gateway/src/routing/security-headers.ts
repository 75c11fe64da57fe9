import { apiVersion } from '@petstore/contract';
import type { Middleware } from 'koa';

/** Nothing may load, frame or be framed: the policy of every JSON answer. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * `API-Version` and the security headers on every answer, errors and meta included. Answers
 * are JSON for programs: nothing is cached, sniffed, framed or given a referrer. `/docs` widens
 * the content security policy for its own page.
 */
export function securityHeaders({ https }: { https: boolean }): Middleware {
  const headers: Record<string, string> = {
    'API-Version': apiVersion,
    'Cache-Control': 'no-store',
    'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
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
