import type { Middleware } from 'koa';
import { AppError } from './app-error.js';

/** The last middleware: reached only when no route answered. */
export function routeNotFound(): Middleware {
  return (ctx) => {
    throw new AppError('route_not_found', `no operation for ${ctx.method} ${ctx.path}`);
  };
}
