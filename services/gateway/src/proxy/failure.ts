import { AppError, errorCode, upstreamErrors } from '@petstore/service-kit';
import { errors } from 'undici';

/** The service could not be reached, or dropped the connection. */
const UNREACHABLE = new Set(
  (
    'ECONNREFUSED ECONNRESET ECONNABORTED EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ' +
    'ETIMEDOUT UND_ERR_SOCKET UND_ERR_CONNECT_TIMEOUT UND_ERR_CLOSED UND_ERR_DESTROYED'
  ).split(' '),
);

const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** nginx's status for a client gone before the response: no fault, logged as completed. */
export const CLIENT_CLOSED_REQUEST = 499;

export interface FailedExchange {
  service: string;
  /** The status and headers had come before the failure. */
  responded: boolean;
  timedOut: boolean;
  timeoutMs: number;
}

/** 504, 502 or 503 for the client; anything else is a bug (500). */
export function classifyFailure(error: unknown, failed: FailedExchange): Error {
  const code = errorCode(error);
  const fail = (
    status: 'upstream_timeout' | 'bad_gateway' | 'service_unavailable',
    why: string,
  ) =>
    new AppError(status, `[gateway] ${failed.service} ${why}`, {
      cause: error,
    });
  if (failed.timedOut || TIMED_OUT.has(code ?? '')) {
    return fail(
      'upstream_timeout',
      `did not answer within ${failed.timeoutMs} ms`,
    );
  }
  if (
    failed.responded ||
    error instanceof errors.HTTPParserError ||
    error instanceof errors.HeadersOverflowError ||
    error instanceof errors.ResponseContentLengthMismatchError
  ) {
    return fail('bad_gateway', 'sent a broken answer');
  }
  if (UNREACHABLE.has(code ?? ''))
    return fail('service_unavailable', 'is unavailable');
  return error instanceof Error ? error : new Error(String(error));
}

const KINDS: Partial<Record<string, 'timeout' | 'refused' | 'bad_answer'>> = {
  upstream_timeout: 'timeout',
  service_unavailable: 'refused',
  bad_gateway: 'bad_answer',
};

export function countFailure(service: string, failure: Error): void {
  const kind = failure instanceof AppError ? KINDS[failure.code] : undefined;
  if (kind) upstreamErrors.inc({ service, kind });
}
