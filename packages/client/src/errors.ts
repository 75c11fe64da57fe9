import { retryAfterMs } from './retries.js';
import type { ErrorBody, ErrorCode, ErrorDetail } from './types.js';

/** The API answered with an error status; `code` says which error, `requestId` is for support. */
export class PetstoreError extends Error {
  override readonly name = 'PetstoreError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string;
  readonly details: ErrorDetail[] | undefined;
  /** The response's headers (`RateLimit-*`, `Retry-After`, `X-Request-Id`, …). */
  readonly headers: Headers;
  /** The seconds `Retry-After` asks to wait (as a number or an HTTP date), if it was sent. */
  readonly retryAfter: number | undefined;

  constructor(
    body: ErrorBody,
    requestId: string,
    headers: Headers = new Headers(),
  ) {
    super(body.message);
    this.status = body.status;
    this.code = body.code;
    this.requestId = body.requestId ?? requestId;
    this.details = body.details;
    this.headers = headers;
    const wait = retryAfterMs(headers.get('retry-after'), Date.now());
    this.retryAfter = wait === undefined ? undefined : Math.ceil(wait / 1000);
  }
}

/** No answer came: the connection failed or was cut. The original error is the `cause`. */
export class PetstoreConnectionError extends Error {
  override readonly name: string = 'PetstoreConnectionError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No answer came within the timeout of an attempt. */
export class PetstoreTimeoutError extends PetstoreConnectionError {
  override readonly name = 'PetstoreTimeoutError';
}

/** A webhook delivery that cannot be trusted: missing headers, a bad signature, a stale time. */
export class PetstoreWebhookError extends Error {
  override readonly name = 'PetstoreWebhookError';
}

const codeOfStatus: Record<number, ErrorCode> = {
  400: 'malformed_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  422: 'validation_failed',
  429: 'rate_limited',
  431: 'headers_too_large',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'upstream_timeout',
};

function isErrorBody(body: unknown): body is Omit<ErrorBody, 'status'> {
  const { code, message } = (body ?? {}) as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string';
}

/**
 * The error for a response that is not a success. A body that is not the API's Error shape (a
 * proxy's HTML page, an empty body) still gives a PetstoreError, its code chosen by the status.
 */
export function errorFromResponse(
  response: Response,
  body: unknown,
  requestId: string,
  fallbackMessage: string,
): PetstoreError {
  const { status, headers } = response;
  if (isErrorBody(body))
    return new PetstoreError({ ...body, status }, requestId, headers);
  const code =
    codeOfStatus[status] ??
    (status < 500 ? 'malformed_request' : 'internal_error');
  return new PetstoreError(
    { code, message: fallbackMessage, status },
    requestId,
    headers,
  );
}

/** A success whose body is not what the operation answers: the gateway's fault, as 502 is. */
export function unexpectedBody(
  request: string,
  response: Response,
  requestId: string,
): PetstoreError {
  const { status, headers } = response;
  const message = `${request} answered ${status} without the JSON body it should have`;
  return new PetstoreError(
    { code: 'bad_gateway', message, status },
    requestId,
    headers,
  );
}
