import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import './koa-context.js';
import type { Logger } from './logger.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives the request an id, echoes it as `X-Request-Id` and binds a child logger to it. */
export function requestId(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.log = logger.child({ requestId: ctx.requestId });
    ctx.set('X-Request-Id', ctx.requestId);
    await next();
  };
}
