import type { IncomingHttpHeaders } from 'node:http';
import { internalHeaders, withTraceContext, type Caller } from '@petstore/service-kit';
import type { Context } from 'koa';

/** Headers that describe one connection, not the request; never forwarded. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  // The gateway checks every answer's JSON framing (and parses error answers), which it cannot do
  // on compressed bytes, so it asks for answers as they are. No service compresses, so this costs
  // nothing today; one that did would need the gateway to decompress before checking.
  'accept-encoding',
];

/**
 * Identity and internal headers only the gateway may set, the client's credentials, and its trace
 * context (the gateway's own span is the services' parent).
 */
const GATEWAY_OWNED = [
  internalHeaders.token,
  internalHeaders.accountId,
  internalHeaders.role,
  internalHeaders.requestId,
  'authorization',
  'traceparent',
  'tracestate',
];

/** Never forwarded, whatever the request. */
const DROPPED = new Set([...HOP_BY_HOP, ...GATEWAY_OWNED]);

/** Upstream answer headers a client needs; everything else the gateway decides itself. */
const PASSED_THROUGH = ['Location', 'Link', 'Deprecation', 'Sunset', 'Allow', 'Retry-After'];

/** The client's headers minus hop-by-hop and gateway-owned ones, plus the gateway's own. */
export function forwardedHeaders(ctx: Context, caller: Caller | undefined, internalToken: string) {
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
    if (value !== undefined && !DROPPED.has(name) && !named?.has(name)) headers[name] = value;
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

/** Sets on the client's answer the service's headers that a client needs. */
export function passAnswerHeaders(ctx: Context, headers: IncomingHttpHeaders): void {
  for (const name of PASSED_THROUGH) {
    const value = headerValue(headers, name);
    if (value !== undefined) ctx.set(name, value);
  }
}
