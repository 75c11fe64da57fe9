import { AppError } from '@petstore/service-kit';
import type { Middleware } from 'koa';

/** API.md's cap. Node keeps 2,000 and drops the rest unseen: the gateway's own among them. */
const MAX_HEADERS = 100;

/** 431 `headers_too_large` for a request with more than 100 headers. */
export function refuseTooManyHeaders(): Middleware {
  return async function refuseTooManyHeaders(ctx, next) {
    if (ctx.req.rawHeaders.length / 2 > MAX_HEADERS) {
      throw new AppError(
        'headers_too_large',
        `a request may carry at most ${MAX_HEADERS} headers`,
      );
    }
    await next();
  };
}
