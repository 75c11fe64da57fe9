import {
  errorStatus,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
} from '@petstore/contract';
import {
  MethodNotAllowedError,
  RequestValidationError,
} from '@petstore/ts-rest-koa';
import type { Middleware } from 'koa';
import { isDatabaseUnavailable } from './mongo.js';

export interface AppErrorOptions {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.status = errorStatus[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

// An exposed http-errors 4xx (`ctx.throw(404)`) not listed here becomes 400 `validation_failed`.
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

type HttpError = Error & { status: number; headers?: Record<string, string> };

const isExposedClientError = (error: unknown): error is HttpError =>
  error instanceof Error &&
  'expose' in error &&
  error.expose === true &&
  'status' in error &&
  typeof error.status === 'number' &&
  error.status >= 400 &&
  error.status < 500;

/** Anything not known to be safe becomes `internal_error`, the original kept as `cause`. */
export function toAppError(cause: unknown): AppError {
  if (cause instanceof AppError) return cause;
  if (cause instanceof RequestValidationError) {
    const { message, details } = cause;
    return new AppError('validation_failed', message, { details, cause });
  }
  if (cause instanceof MethodNotAllowedError) {
    const headers = { Allow: cause.allow.join(', ') };
    return new AppError('method_not_allowed', cause.message, {
      headers,
      cause,
    });
  }
  if (isDatabaseUnavailable(cause)) {
    return new AppError('service_unavailable', 'database unavailable', {
      cause,
    });
  }
  if (isExposedClientError(cause)) {
    const code = CODE_FOR_CLIENT_STATUS[cause.status] ?? 'validation_failed';
    const { message, headers } = cause;
    return new AppError(code, message, { headers, cause });
  }
  return new AppError('internal_error', 'internal server error', { cause });
}

export function errorMiddleware(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const error = toAppError(thrown);
      if (error.status >= 500) ctx.log.error({ err: thrown }, error.message);
      const { code, message, status, details } = error;
      const body: ErrorBody = {
        code,
        message,
        status,
        requestId: ctx.requestId,
      };
      if (details) body.details = details;
      ctx.status = status;
      ctx.set(error.headers);
      ctx.body = body;
    }
  };
}
