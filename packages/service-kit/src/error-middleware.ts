import type { ErrorBody } from '@petstore/contract';
import type { Middleware } from 'koa';
import { toAppError } from './to-app-error.js';

/** The one place that turns a thrown error into the API's Error body. */
export function errorMiddleware(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const error = toAppError(thrown);
      if (error.status >= 500) ctx.log.error({ err: thrown }, error.message);
      const body: ErrorBody = {
        code: error.code,
        message: error.message,
        status: error.status,
        requestId: ctx.requestId,
      };
      if (error.details) body.details = error.details;
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = body;
    }
  };
}
