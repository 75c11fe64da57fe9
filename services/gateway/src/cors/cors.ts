import cors from '@koa/cors';
import { unsetWhenEmpty } from '@petstore/service-kit';
import type { Middleware } from 'koa';
import { z } from 'zod';

/** An origin as a browser sends it in `Origin`: scheme, host and a port other than the scheme's. */
function asOrigin(text: string): string | undefined {
  try {
    const { origin, href, protocol } = new URL(text.trim());
    return href === `${origin}/` && /^https?:$/.test(protocol)
      ? origin
      : undefined;
  } catch {
    return undefined;
  }
}

/** `CORS_ORIGINS`: the browser origins allowed to call the API; none (no CORS) by default. */
export function envCorsOrigins() {
  return unsetWhenEmpty(
    z
      .string()
      .default('')
      .transform((value, ctx) => {
        const entries = value.split(',').filter((entry) => entry.trim());
        const origins = entries.map(asOrigin);
        if (origins.every((origin): origin is string => origin !== undefined))
          return origins;
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message:
            'Expected comma-separated origins such as https://app.example.com (no path, no *)',
        });
        return z.NEVER;
      }),
  );
}

/** What a browser may send besides the headers it always may. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
];

/** The response headers a page's script may read; a browser hides every other. */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Location',
  'Link',
  'Idempotent-Replayed',
  'API-Version',
  'Deprecation',
  'Sunset',
];

/** How long a browser may keep a preflight's answer: long enough to save round trips, short
 * enough that an origin taken off the list stops working soon. */
const MAX_AGE_SECONDS = 600;

/**
 * CORS for the origins of `CORS_ORIGINS`, before authentication and routing: a preflight from one
 * of them is answered 204 here; every response to one of them, errors included, says it may be
 * read and which headers it may read. Any other origin gets no CORS header (its browser refuses
 * the answer); `Vary: Origin` is on every response, as the answer depends on it. No credentials:
 * the API is called with a Bearer key, never a cookie.
 */
export function corsForOrigins(origins: readonly string[]): Middleware[] {
  if (origins.length === 0) return [];
  const allowed = new Set(origins);
  const middleware = cors({
    origin: (ctx) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: MAX_AGE_SECONDS,
  });
  return [middleware];
}
