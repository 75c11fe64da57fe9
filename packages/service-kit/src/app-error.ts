import { errorStatus, type ErrorCode, type ErrorDetail } from '@petstore/contract';

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** Response headers the error needs, e.g. `Allow`, `Retry-After` or `WWW-Authenticate`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** An error a service answers on purpose; its status follows from its code. */
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
