import { internalContract } from '@petstore/contract';
import { trustGateway } from '@petstore/service-kit';
import { createKoaRouter } from '@petstore/ts-rest-koa';
import type { Middleware } from 'koa';
import type { EventRecorder } from './event-recorder.js';

/** Any `/internal/…` path is 401 without the internal token, before its body is read. */
export function internalOnly(internalToken: string): Middleware {
  const trusted = trustGateway(internalToken);
  return async (ctx, next) => {
    if (ctx.path.startsWith('/internal/')) await trusted(ctx, next);
    else await next();
  };
}

export function internalEventRoutes(recorder: EventRecorder) {
  return createKoaRouter(
    { events: internalContract.events },
    {
      events: {
        recordEvents: async ({ body }) => ({
          status: 202,
          body: { recorded: await recorder.recordEvents(body.events) },
        }),
      },
    },
  ).routes();
}
