import type { Middleware } from 'koa';

/** The app's answer when no router matched the path. */
export const routeNotFound: Middleware = (ctx) => {
  ctx.status = 404;
  ctx.body = {
    code: 'route_not_found',
    message: `no route for ${ctx.method} ${ctx.path}`,
    status: 404,
  };
};
