import type { ErrorCode } from '@petstore/contract';
import { MethodNotAllowedError, RequestValidationError } from '@petstore/ts-rest-koa';
import { AppError } from './app-error.js';
import { isDatabaseUnavailable } from './mongo.js';

/**
 * The code an exposed http-errors style 4xx (e.g. Koa's `ctx.throw(404)`) answers with; a 4xx
 * not listed here has no code of its own and answers 400 `validation_failed`.
 */
const CODE_FOR_CLIENT_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  429: 'rate_limited',
};

interface HttpError {
  status: number;
  expose: true;
  message: string;
  headers?: Record<string, string>;
}

function isExposedClientError(error: unknown): error is HttpError {
  if (!(error instanceof Error) || !('status' in error) || !('expose' in error)) return false;
  return (
    typeof error.status === 'number' &&
    error.status >= 400 &&
    error.status < 500 &&
    error.expose === true
  );
}

/**
 * Turns anything thrown into the AppError to answer with. What is not known to be safe
 * becomes `internal_error` with a generic message; the original stays as `cause`.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof RequestValidationError) {
    return new AppError('validation_failed', error.message, {
      details: error.details,
      cause: error,
    });
  }
  if (error instanceof MethodNotAllowedError) {
    return new AppError('method_not_allowed', error.message, {
      headers: { Allow: error.allow.join(', ') },
      cause: error,
    });
  }
  if (isDatabaseUnavailable(error)) {
    return new AppError('service_unavailable', 'database unavailable', { cause: error });
  }
  if (isExposedClientError(error)) {
    const code = CODE_FOR_CLIENT_STATUS[error.status] ?? 'validation_failed';
    return new AppError(code, error.message, { headers: error.headers, cause: error });
  }
  return new AppError('internal_error', 'internal server error', { cause: error });
}
