import type { IncomingHttpHeaders } from 'node:http';
import {
  internalHeaders,
  withTraceContext,
  type Caller,
} from '@petstore/service-kit';
import type { Context } from 'koa';

/**
 * Never forwarded: hop-by-hop headers; `content-length`, which undici sets for the body read;
 * `accept-encoding`, since the gateway checks every response's bytes; the
 * client's credentials and trace context; what only the gateway may set.
 */
const DROPPED = new Set([
  ...'connection keep-alive proxy-authenticate proxy-authorization proxy-connection te'.split(
    ' ',
  ),
  ...'trailer transfer-encoding content-length upgrade expect host accept-encoding'.split(
    ' ',
  ),
  ...['authorization', 'traceparent', 'tracestate'],
  ...Object.values(internalHeaders),
]);

/** Service response headers a client needs; the gateway decides every other one. */
const PASSED_THROUGH = [
  ...['Location', 'Link', 'Deprecation', 'Sunset', 'Allow', 'Retry-After'],
  'Idempotent-Replayed',
];

export function forwardedHeaders(
  ctx: Context,
  caller: Caller | undefined,
  internalToken: string,
) {
  const connection = ctx.get('Connection');
  // The headers a client's `Connection` names are hop-by-hop for this request too.
  const named =
    connection === ''
      ? undefined
      : new Set(connection.split(',').map((name) => name.trim().toLowerCase()));
  const headers: Record<string, string | string[]> = {};
  const incoming = ctx.req.headers;
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined && !DROPPED.has(name) && !named?.has(name))
      headers[name] = value;
  }
  headers[internalHeaders.token] = internalToken;
  headers[internalHeaders.requestId] = ctx.requestId;
  if (caller) {
    headers[internalHeaders.accountId] = caller.accountId;
    headers[internalHeaders.role] = caller.role;
  }
  return withTraceContext(headers);
}

export function headerValue(headers: IncomingHttpHeaders, name: string) {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function passResponseHeaders(
  ctx: Context,
  headers: IncomingHttpHeaders,
): void {
  for (const name of PASSED_THROUGH) {
    const value = headerValue(headers, name);
    if (value !== undefined) ctx.set(name, value);
  }
}
