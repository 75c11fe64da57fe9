import type { IncomingHttpHeaders } from 'node:http';
import {
  AppError,
  callerOf,
  errorCode,
  hasBody,
  internalHeaders,
  readBody,
  upstreamErrors,
  withFailover,
  withTraceContext,
} from '@petstore/service-kit';
import type { Context } from 'koa';
import { errors, type Dispatcher, type Pool } from 'undici';
import { unusableResponse } from './response-check.js';
import { exchange } from './upstream-exchange.js';
import type { Upstream } from './upstreams.js';

export interface ProxyOptions {
  internalToken: string;
  /** The whole exchange, from sending the request to the last byte of the response. */
  timeoutMs: number;
  bodyLimitBytes: number;
}

/** Larger responses are 502: no operation comes anywhere near it. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_ATTEMPTS = 3;
/** DELETE too: cancelling twice is the same as once. */
const HARMLESS_TWICE = new Set(['GET', 'HEAD', 'DELETE']);
/** nginx's status for a client gone before the response: no fault, logged as completed. */
const CLIENT_CLOSED_REQUEST = 499;

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

/** The service could not be reached, or dropped the connection. */
const UNREACHABLE = new Set(
  (
    'ECONNREFUSED ECONNRESET ECONNABORTED EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ' +
    'ETIMEDOUT UND_ERR_SOCKET UND_ERR_CONNECT_TIMEOUT UND_ERR_CLOSED UND_ERR_DESTROYED'
  ).split(' '),
);

const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function headerValue(headers: IncomingHttpHeaders, name: string) {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function forwardedHeaders(ctx: Context, internalToken: string) {
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
  const caller = callerOf(ctx);
  if (caller) {
    headers[internalHeaders.accountId] = caller.accountId;
    headers[internalHeaders.role] = caller.role;
  }
  return withTraceContext(headers);
}

/** A service's failure, counted: 504, 502 or 503 for the client; anything else is a bug (500). */
function failure(
  error: unknown,
  service: string,
  { responded, timedOut, timeoutMs }: Record<string, number | boolean>,
): Error {
  const code = errorCode(error) ?? '';
  const fail = (
    status: 'upstream_timeout' | 'bad_gateway' | 'service_unavailable',
    kind: 'timeout' | 'bad_answer' | 'refused',
    why: string,
  ) => {
    upstreamErrors.inc({ service, kind });
    const cause = error;
    return new AppError(status, `[gateway] ${service} ${why}`, { cause });
  };
  if (timedOut || TIMED_OUT.has(code)) {
    const why = `did not answer within ${String(timeoutMs)} ms`;
    return fail('upstream_timeout', 'timeout', why);
  }
  if (
    responded ||
    error instanceof errors.HTTPParserError ||
    error instanceof errors.HeadersOverflowError ||
    error instanceof errors.ResponseContentLengthMismatchError
  ) {
    return fail('bad_gateway', 'bad_answer', 'sent a broken answer');
  }
  if (UNREACHABLE.has(code))
    return fail('service_unavailable', 'refused', 'is unavailable');
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Forwards the request to the service that owns the operation and responds with the service's
 * status, body and the headers that matter. The body is read whole first, so that a client that
 * sends it slowly ties up only its own connection, never one to a service. A refused connection is
 * tried on another replica; a dropped one only when sending twice is harmless (`GET`, `HEAD`,
 * `DELETE`, a `POST` with an `Idempotency-Key`).
 */
export async function proxyRequest(
  ctx: Context,
  upstream: Upstream,
  { internalToken, timeoutMs, bodyLimitBytes }: ProxyOptions,
): Promise<void> {
  // Node sent 400 for bytes that broke HTTP and dropped the connection: the body never ends.
  if (ctx.req.destroyed) {
    ctx.status = CLIENT_CLOSED_REQUEST;
    return;
  }
  const keyed = ctx.method === 'POST' && ctx.get('idempotency-key') !== '';
  const body = hasBody(ctx) ? await readBody(ctx, bodyLimitBytes) : undefined;
  const request: Dispatcher.DispatchOptions = {
    path: `${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`,
    method: ctx.method,
    headers: forwardedHeaders(ctx, internalToken),
    body,
  };
  let responded = false;
  let current: ReturnType<typeof exchange> | undefined;
  let stopped: 'timed out' | 'client gone' | undefined;
  const stop = (why: 'timed out' | 'client gone') => {
    stopped ??= why;
    current?.abort(new Error(why));
  };
  const timer = setTimeout(() => {
    stop('timed out');
  }, timeoutMs);
  const onClientGone = () => {
    if (!ctx.res.writableFinished) stop('client gone');
  };
  ctx.res.once('close', onClientGone);
  const send = async (replica: Pool) => {
    current = exchange(replica, request, MAX_RESPONSE_BYTES, () => {
      responded = true;
    });
    const response = await current.response;
    if (
      headerValue(response.headers, 'connection')?.toLowerCase() === 'close'
    ) {
      upstream.avoid(replica);
    }
    return response;
  };
  // A refused connection never carried the request; a dropped one may have.
  const mayTryAgain = (error: unknown) => {
    if (responded || stopped !== undefined) return false;
    const code = errorCode(error);
    const dropped = code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
    return (
      code === 'ECONNREFUSED' ||
      (dropped && (HARMLESS_TWICE.has(ctx.method) || keyed))
    );
  };
  let response;
  try {
    response = await withFailover({
      replicas: upstream,
      send,
      mayTryAgain,
      attempts: MAX_ATTEMPTS,
    });
  } catch (error) {
    if (stopped === 'client gone') {
      ctx.status = CLIENT_CLOSED_REQUEST;
      return;
    }
    const timedOut = stopped !== undefined;
    throw failure(error, upstream.name, { responded, timedOut, timeoutMs });
  } finally {
    clearTimeout(timer);
    ctx.res.off('close', onClientGone);
  }
  const contentType = headerValue(response.headers, 'content-type');
  const { statusCode, body: bytes } = response;
  const problem = unusableResponse(ctx.method, statusCode, contentType, bytes);
  if (problem) {
    upstreamErrors.inc({ service: upstream.name, kind: 'bad_answer' });
    throw new AppError('bad_gateway', `[gateway] ${upstream.name} ${problem}`);
  }
  for (const name of PASSED_THROUGH) {
    const value = headerValue(response.headers, name);
    if (value !== undefined) ctx.set(name, value);
  }
  if (ctx.method === 'HEAD' || bytes.length === 0) {
    ctx.body = null;
  } else {
    ctx.set('Content-Type', contentType ?? 'application/json');
    ctx.body = bytes;
  }
  ctx.status = statusCode;
}
