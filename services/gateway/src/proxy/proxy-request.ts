import {
  AppError,
  errorCode,
  hasBody,
  readBody,
  withFailover,
  type Caller,
} from '@petstore/service-kit';
import type { Context } from 'koa';
import type { Dispatcher, Pool } from 'undici';
import { unusableResponse } from './response-check.js';
import {
  CLIENT_CLOSED_REQUEST,
  classifyFailure,
  countFailure,
} from './failure.js';
import {
  forwardedHeaders,
  headerValue,
  passResponseHeaders,
} from './header-policy.js';
import { exchange, type Exchange } from './upstream-exchange.js';
import type { Upstream } from './upstreams.js';

export interface ProxyOptions {
  internalToken: string;
  /** The whole exchange, from sending the request to the last byte of the response. */
  timeoutMs: number;
  bodyLimitBytes: number;
  /** Larger responses are 502: no operation comes anywhere near it. */
  maxResponseBytes?: number;
}

const MAX_ATTEMPTS = 3;

/** DELETE too: cancelling twice is the same as once. */
const HARMLESS_TWICE = new Set(['GET', 'HEAD', 'DELETE']);

class ClientGone extends Error {}
class UpstreamTimedOut extends Error {}

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
  caller: Caller | undefined,
  options: ProxyOptions,
): Promise<void> {
  const {
    timeoutMs,
    bodyLimitBytes,
    maxResponseBytes: maxBytes = 8 * 1024 * 1024,
  } = options;
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
    headers: forwardedHeaders(ctx, caller, options.internalToken),
    body,
  };
  let responded = false;
  let current: Exchange | undefined;
  let stopped: ClientGone | UpstreamTimedOut | undefined;
  const stop = (reason: ClientGone | UpstreamTimedOut) => {
    stopped ??= reason;
    current?.abort(reason);
  };
  const timer = setTimeout(() => {
    stop(new UpstreamTimedOut());
  }, timeoutMs);
  const onClientGone = () => {
    if (!ctx.res.writableFinished) stop(new ClientGone());
  };
  ctx.res.once('close', onClientGone);
  const send = async (replica: Pool) => {
    current = exchange(replica, request, {
      maxBytes,
      onResponseStarted: () => {
        responded = true;
      },
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
  try {
    const response = await withFailover({
      replicas: upstream,
      send,
      mayTryAgain,
      attempts: MAX_ATTEMPTS,
    });
    const contentType = headerValue(response.headers, 'content-type');
    const { body: bytes } = response;
    const problem = unusableResponse(
      ctx.method,
      response.statusCode,
      contentType,
      bytes,
    );
    if (problem)
      throw new AppError(
        'bad_gateway',
        `[gateway] ${upstream.name} ${problem}`,
      );
    passResponseHeaders(ctx, response.headers);
    if (ctx.method === 'HEAD' || bytes.length === 0) {
      ctx.body = null;
    } else {
      ctx.set('Content-Type', contentType ?? 'application/json');
      ctx.body = bytes;
    }
    ctx.status = response.statusCode;
  } catch (error) {
    if (!(error instanceof AppError) && stopped instanceof ClientGone) {
      ctx.status = CLIENT_CLOSED_REQUEST;
      return;
    }
    const timedOut = stopped !== undefined;
    const failed = { ...options, service: upstream.name, responded, timedOut };
    const failure =
      error instanceof AppError ? error : classifyFailure(error, failed);
    countFailure(upstream.name, failure);
    throw failure;
  } finally {
    clearTimeout(timer);
    ctx.res.off('close', onClientGone);
  }
}
