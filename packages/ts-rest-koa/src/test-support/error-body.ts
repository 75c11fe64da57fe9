import type { Middleware } from 'koa';

interface HttpErrorLike {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  expose?: unknown;
  details?: unknown;
}

/**
 * Maps thrown errors to `{ code, message, status, details? }` the way a service would. It only sets
 * status and body, so any header a response keeps was set on the context before the throw.
 */
export const errorBody: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (caught) {
    const error: HttpErrorLike =
      typeof caught === 'object' && caught !== null ? caught : {};
    const status = typeof error.status === 'number' ? error.status : 500;
    const exposed = error.expose === true;
    ctx.status = status;
    ctx.body = {
      code:
        exposed && typeof error.code === 'string'
          ? error.code
          : 'internal_error',
      message:
        exposed && typeof error.message === 'string'
          ? error.message
          : 'internal error',
      status,
      ...(exposed && Array.isArray(error.details)
        ? { details: error.details }
        : {}),
    };
  }
};
