import { IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

/** A service's answer, read whole. */
export interface UpstreamAnswer {
  statusCode: number;
  /** Lower-case names, as undici parses them. */
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ExchangeOptions {
  /** A larger answer fails the exchange (and drops its connection). */
  maxBytes: number;
  /** Called once the status and headers have come: a later failure is a broken answer. */
  onAnswerStarted?: () => void;
}

export interface Exchange {
  answer: Promise<UpstreamAnswer>;
  /** Gives up: the answer rejects with `reason` (once the request has a connection to cancel). */
  abort(reason: Error): void;
}

/**
 * Sends one request on `dispatcher` and collects its answer in memory, straight from undici's
 * dispatch callbacks: no response stream, async iterator or AbortSignal per request, which is
 * what `dispatcher.request()` costs on top. On failure a request body stream of our own (the
 * size limiter) is destroyed; the client's request itself is left to Node, which discards what is
 * left of it once the error is answered.
 */
export function exchange(
  dispatcher: Dispatcher,
  request: Dispatcher.DispatchOptions,
  { maxBytes, onAnswerStarted }: ExchangeOptions,
): Exchange {
  let controller: Dispatcher.DispatchController | undefined;
  let reason: Error | undefined;
  let settled = false;
  let statusCode = 0;
  let headers: IncomingHttpHeaders = {};
  const chunks: Buffer[] = [];
  let size = 0;

  let resolve!: (answer: UpstreamAnswer) => void;
  let reject!: (error: Error) => void;
  const answer = new Promise<UpstreamAnswer>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });

  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(started) {
      controller = started;
      if (reason) started.abort(reason);
    },
    onResponseStart(_controller, status, answerHeaders) {
      // 1xx informational answers come before the real one.
      if (status < 200) return;
      statusCode = status;
      headers = answerHeaders;
      onAnswerStarted?.();
    },
    onResponseData(current, chunk) {
      size += chunk.length;
      if (size > maxBytes) current.abort(new Error(`answer larger than ${maxBytes} bytes`));
      else chunks.push(chunk);
    },
    onResponseEnd() {
      if (settled) return;
      settled = true;
      resolve({ statusCode, headers, body: Buffer.concat(chunks, size) });
    },
    onResponseError(_controller, error) {
      if (settled) return;
      settled = true;
      const { body } = request;
      if (body instanceof Readable && !(body instanceof IncomingMessage) && !body.destroyed) {
        body.on('error', () => undefined);
        body.destroy(error);
      }
      reject(error);
    },
  };
  dispatcher.dispatch(request, handler);

  return {
    answer,
    abort(why: Error) {
      if (settled || reason) return;
      reason = why;
      controller?.abort(why);
    },
  };
}
