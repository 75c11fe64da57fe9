import { internalContract } from '@petstore/contract';
import { trustGateway } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
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

/** The internal operations the gateway answers itself: the services' events. */
export const internalEventsContract = { events: internalContract.events };

export function internalEventRoutes(
  recorder: EventRecorder,
): RouterImplementation<typeof internalEventsContract> {
  return {
    events: {
      recordEvents: async ({ body }) => ({
        status: 202,
        body: { recorded: await recorder.recordEvents(body.events) },
      }),
    },
  };
}
