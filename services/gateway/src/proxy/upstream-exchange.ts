import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** A service's response, read whole; header names lower-case. */
interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends one request and collects its response straight from undici's dispatch callbacks, without
 * the stream, iterator and AbortSignal `dispatcher.request()` adds per request.
 */
export function exchange(
  dispatcher: Dispatcher,
  request: Dispatcher.DispatchOptions,
  maxBytes: number,
  /** Called once the status and headers have come: a later failure is a broken response. */
  onResponseStarted: () => void,
) {
  let controller: Dispatcher.DispatchController | undefined;
  let reason: Error | undefined;
  let finished = false;
  let statusCode = 0;
  let headers: IncomingHttpHeaders = {};
  const chunks: Buffer[] = [];
  let size = 0;

  let resolve!: (response: UpstreamResponse) => void;
  let reject!: (error: Error) => void;
  const response = new Promise<UpstreamResponse>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });

  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(started) {
      controller = started;
      if (reason) started.abort(reason);
    },
    onResponseStart(_controller, status, responseHeaders) {
      // 1xx informational responses come before the real one.
      if (status < 200) return;
      statusCode = status;
      headers = responseHeaders;
      onResponseStarted();
    },
    onResponseData(current, chunk) {
      size += chunk.length;
      if (size > maxBytes)
        current.abort(new Error(`response larger than ${maxBytes} bytes`));
      else chunks.push(chunk);
    },
    onResponseEnd() {
      if (finished) return;
      finished = true;
      resolve({ statusCode, headers, body: Buffer.concat(chunks, size) });
    },
    onResponseError(_controller, error) {
      if (finished) return;
      finished = true;
      reject(error);
    },
  };
  dispatcher.dispatch(request, handler);

  return {
    response,
    /** Gives up: the response rejects with `why`. */
    abort(why: Error) {
      if (finished || reason) return;
      reason = why;
      controller?.abort(why);
    },
  };
}
