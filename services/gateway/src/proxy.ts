import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { ErrorSchema } from '@petstore/contract';
import { AppError, internalHeaders, type Caller } from '@petstore/service-kit';
import type { Context } from 'koa';
import { errors, type Dispatcher } from 'undici';
import { exchange, type UpstreamAnswer } from './upstream-exchange.js';
import type { Upstream } from './upstreams.js';

export interface ProxyOptions {
  internalToken: string;
  /** The whole exchange, from sending the request to the last byte of the answer. */
  timeoutMs: number;
  /** Request bodies larger than this are refused with 413 before reaching a service. */
  bodyLimitBytes: number;
  /** Answers larger than this are 502: no operation answers anywhere near it. */
  maxResponseBytes?: number;
}

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
  // The gateway reads every answer to check it is JSON, so it asks for it uncompressed.
  'accept-encoding',
];

/** Identity and internal headers only the gateway may set, and the client's credentials. */
const GATEWAY_OWNED = [
  internalHeaders.token,
  internalHeaders.accountId,
  internalHeaders.role,
  internalHeaders.requestId,
  'authorization',
];

/** Upstream answer headers a client needs; everything else the gateway decides itself. */
const PASSED_THROUGH = ['Location', 'Link', 'Deprecation', 'Sunset', 'Allow', 'Retry-After'];

/** Network failures that mean the service could not be reached or dropped the connection. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

class RequestBodyTooLarge extends Error {}
class ClientGone extends Error {}
class UpstreamTimedOut extends Error {}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Never forwarded, whatever the request. */
const DROPPED = new Set([...HOP_BY_HOP, ...GATEWAY_OWNED]);

/** The client's headers minus hop-by-hop and gateway-owned ones, plus the gateway's own. */
function forwardedHeaders(ctx: Context, caller: Caller | undefined, internalToken: string) {
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
  return headers;
}

function tooLarge(ctx: Context, limitBytes: number): AppError {
  ctx.set('Connection', 'close');
  return new AppError('payload_too_large', `request body is larger than ${limitBytes} bytes`);
}

/** The request body as a stream, unread and unchanged, refused past `limitBytes`. */
function requestBody(ctx: Context, limitBytes: number): Readable | undefined {
  const length = ctx.request.length;
  const chunked = ctx.get('Transfer-Encoding') !== '';
  if (!chunked && !length) return undefined;
  if (length !== undefined && length > limitBytes) throw tooLarge(ctx, limitBytes);
  if (!chunked) return ctx.req;
  let received = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limitBytes) callback(new RequestBodyTooLarge());
      else callback(null, chunk);
    },
  });
  ctx.req.on('error', (error) => limiter.destroy(error));
  return ctx.req.pipe(limiter);
}

function isJsonType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    mediaType === 'application/json' ||
    (mediaType.startsWith('application/') && mediaType.endsWith('+json'))
  );
}

function headerValue(headers: IncomingHttpHeaders, name: string) {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Why an upstream answer cannot be passed on, or undefined when it can. */
function unusableAnswer(
  method: string,
  status: number,
  contentType: string | undefined,
  body: Buffer,
): string | undefined {
  if (status === 401) return 'refused the gateway’s credentials';
  if (method === 'HEAD' || status === 204 || status === 304) return undefined;
  if (!isJsonType(contentType))
    return `answered ${status} with content type ${contentType ?? 'none'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf-8'));
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  if (status >= 400) {
    const error = ErrorSchema.safeParse(parsed);
    if (!error.success || error.data.status !== status) {
      return `answered ${status} with a body that is not an Error`;
    }
  }
  return undefined;
}

/**
 * Forwards the request to the service that owns the operation and answers with what it said:
 * status, JSON body and the headers that matter. The request body is streamed through unread. A
 * service that is unreachable is 503, one that is too slow 504, one whose answer is not HTTP/JSON
 * (or breaks off) 502. A `GET` whose connection drops before any answer is tried once more on a
 * fresh connection (a keep-alive connection the service had just closed).
 */
export async function proxyRequest(
  ctx: Context,
  upstream: Upstream,
  caller: Caller | undefined,
  options: ProxyOptions,
): Promise<void> {
  const { timeoutMs, bodyLimitBytes, maxResponseBytes = 8 * 1024 * 1024 } = options;
  // A request whose bytes broke HTTP (a bad chunk size, a body cut short) is answered 400 by
  // Node, which drops the connection, often while the key is still being checked. Its body
  // will never end: forwarding it would hold a connection to the service until the timeout.
  if (ctx.req.destroyed) {
    throw new AppError(
      'service_unavailable',
      `[gateway] the client left before ${upstream.name} was asked`,
    );
  }
  const body = requestBody(ctx, bodyLimitBytes);
  const request: Dispatcher.DispatchOptions = {
    path: `${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`,
    method: ctx.method,
    headers: forwardedHeaders(ctx, caller, options.internalToken),
    body,
  };
  let answered = false;
  const send = () =>
    exchange(upstream.pool, request, {
      maxBytes: maxResponseBytes,
      onAnswerStarted: () => (answered = true),
    });
  let current = send();
  let stopped: ClientGone | UpstreamTimedOut | undefined;
  const stop = (reason: ClientGone | UpstreamTimedOut) => {
    stopped ??= reason;
    current.abort(reason);
  };
  const timer = setTimeout(() => stop(new UpstreamTimedOut()), timeoutMs);
  const onClientGone = () => {
    if (!ctx.res.writableFinished) stop(new ClientGone());
  };
  ctx.res.once('close', onClientGone);
  try {
    let response: UpstreamAnswer;
    try {
      response = await current.answer;
    } catch (error) {
      const retry =
        !answered &&
        stopped === undefined &&
        body === undefined &&
        (ctx.method === 'GET' || ctx.method === 'HEAD') &&
        ['UND_ERR_SOCKET', 'ECONNRESET'].includes(errorCode(error) ?? '');
      if (!retry) throw error;
      current = send();
      response = await current.answer;
    }
    const contentType = headerValue(response.headers, 'content-type');
    const answer = response.body;
    const problem = unusableAnswer(ctx.method, response.statusCode, contentType, answer);
    if (problem) {
      throw new AppError('bad_gateway', `[gateway] ${upstream.name} ${problem}`);
    }
    for (const name of PASSED_THROUGH) {
      const value = headerValue(response.headers, name);
      if (value !== undefined) ctx.set(name, value);
    }
    if (ctx.method === 'HEAD' || answer.length === 0) {
      ctx.body = null;
    } else {
      ctx.set('Content-Type', contentType ?? 'application/json');
      ctx.body = answer;
    }
    ctx.status = response.statusCode;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (stopped instanceof ClientGone) {
      throw new AppError(
        'service_unavailable',
        `[gateway] the client left before ${upstream.name} answered`,
        { cause: error },
      );
    }
    throw failure(ctx, upstream, error, { answered, timedOut: stopped !== undefined, options });
  } finally {
    clearTimeout(timer);
    ctx.res.off('close', onClientGone);
  }
}

function failure(
  ctx: Context,
  { name }: Upstream,
  error: unknown,
  { answered, timedOut, options }: { answered: boolean; timedOut: boolean; options: ProxyOptions },
): Error {
  const code = errorCode(error);
  if (
    error instanceof RequestBodyTooLarge ||
    (error as { cause?: unknown })?.cause instanceof RequestBodyTooLarge
  ) {
    return tooLarge(ctx, options.bodyLimitBytes);
  }
  if (timedOut || TIMED_OUT.has(code ?? '')) {
    return new AppError(
      'upstream_timeout',
      `[gateway] ${name} did not answer within ${options.timeoutMs} ms`,
      { cause: error },
    );
  }
  if (
    answered ||
    error instanceof errors.HTTPParserError ||
    error instanceof errors.HeadersOverflowError ||
    error instanceof errors.ResponseContentLengthMismatchError
  ) {
    return new AppError('bad_gateway', `[gateway] ${name} sent a broken answer`, { cause: error });
  }
  if (code !== undefined && UNREACHABLE.has(code)) {
    return new AppError('service_unavailable', `[gateway] ${name} is unavailable`, {
      cause: error,
    });
  }
  return error instanceof Error ? error : new Error(String(error));
}
