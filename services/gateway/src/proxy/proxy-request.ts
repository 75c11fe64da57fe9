// The proxy: forwards a contract operation to the service that owns it and checks what comes back.
import { AppError, type Caller } from '@petstore/service-kit';
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Dispatcher, Pool } from 'undici';
import { unusableAnswer } from './answer-check.js';
import { CLIENT_CLOSED_REQUEST, classifyFailure, countFailure, errorCode } from './failure.js';
import { forwardedHeaders, headerValue, passAnswerHeaders } from './header-policy.js';
import { RequestBodyTooLarge, requestBody, tooLarge } from './request-body.js';
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

/** A request goes to the service at most this many times (see `worthRetrying`). */
const MAX_ATTEMPTS = 3;

/** Methods that change nothing when sent twice (DELETE: cancelling twice answers as once). */
const HARMLESS_TWICE = new Set(['GET', 'HEAD', 'DELETE']);

/** A body read whole, so that it can be sent again; refused past the limit. */
async function readWhole(ctx: Context, body: Readable, limitBytes: number): Promise<Buffer> {
  try {
    return Buffer.concat((await body.toArray()) as Buffer[]);
  } catch (error) {
    if (error instanceof RequestBodyTooLarge) throw tooLarge(ctx, limitBytes);
    throw error;
  }
}

class ClientGone extends Error {}
class UpstreamTimedOut extends Error {}

/**
 * Forwards the request to the service that owns the operation and answers with what it said:
 * status, JSON body and the headers that matter. The request body is streamed through unread. A
 * service that is unreachable is 503, one that is too slow 504, one whose answer is not HTTP/JSON
 * (or breaks off) 502. A request whose connection is refused is tried again on another replica
 * when there is one (three times in all), and so is one whose connection drops before any answer
 * when doing it twice is harmless: `GET`, `HEAD` and `DELETE`, and a `POST` with an
 * `Idempotency-Key`, whose body is read first so it can be sent again. A `POST` without one is
 * 503: it may have reached the service, and the client did not ask for it to be repeated.
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
    ctx.status = CLIENT_CLOSED_REQUEST;
    return;
  }
  const keyed = ctx.method === 'POST' && ctx.get('idempotency-key') !== '';
  const streamed = requestBody(ctx, bodyLimitBytes);
  const body = keyed && streamed ? await readWhole(ctx, streamed, bodyLimitBytes) : streamed;
  const request: Dispatcher.DispatchOptions = {
    path: `${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`,
    method: ctx.method,
    headers: forwardedHeaders(ctx, caller, options.internalToken),
    body,
  };
  let answered = false;
  const tried = new Set<Pool>();
  let replica = upstream.pick();
  const send = () =>
    exchange(replica, request, {
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
  /**
   * Whether the request can go again: a connection refused never carried it (a replica stopping
   * or restarting: the pool tries another); one the service dropped (a keep-alive connection it
   * had just closed, a replica killed) may have, so only a request harmless twice goes again.
   */
  const worthRetrying = (error: unknown) => {
    if (answered || stopped !== undefined) return false;
    const resendable = body === undefined || Buffer.isBuffer(body) || !body.readableDidRead;
    const code = errorCode(error);
    if (code === 'ECONNREFUSED') return resendable;
    return (
      resendable &&
      (HARMLESS_TWICE.has(ctx.method) || keyed) &&
      (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
    );
  };
  try {
    let response: UpstreamAnswer | undefined;
    for (let attempt = 1; response === undefined; attempt++) {
      try {
        response = await current.answer;
      } catch (error) {
        if (errorCode(error) === 'ECONNREFUSED') upstream.avoid(replica);
        if (attempt === MAX_ATTEMPTS || !worthRetrying(error)) throw error;
        tried.add(replica);
        replica = upstream.pick(tried);
        current = send();
      }
    }
    // A service answers `Connection: close` while it drains before stopping.
    if (headerValue(response.headers, 'connection')?.toLowerCase() === 'close') {
      upstream.avoid(replica);
    }
    const contentType = headerValue(response.headers, 'content-type');
    const answer = response.body;
    const problem = unusableAnswer(ctx.method, response.statusCode, contentType, answer);
    if (problem) {
      throw new AppError('bad_gateway', `[gateway] ${upstream.name} ${problem}`);
    }
    passAnswerHeaders(ctx, response.headers);
    if (ctx.method === 'HEAD' || answer.length === 0) {
      ctx.body = null;
    } else {
      ctx.set('Content-Type', contentType ?? 'application/json');
      ctx.body = answer;
    }
    ctx.status = response.statusCode;
  } catch (error) {
    if (!(error instanceof AppError) && stopped instanceof ClientGone) {
      ctx.status = CLIENT_CLOSED_REQUEST;
      return;
    }
    const failure =
      error instanceof AppError
        ? error
        : classifyFailure(ctx, error, {
            service: upstream.name,
            answered,
            timedOut: stopped !== undefined,
            timeoutMs,
            bodyLimitBytes,
          });
    countFailure(upstream.name, failure);
    throw failure;
  } finally {
    clearTimeout(timer);
    ctx.res.off('close', onClientGone);
  }
}
