import { internalContract } from '@petstore/contract';
import { trustGateway } from '@petstore/service-kit';
import { createKoaRouter } from '@petstore/ts-rest-koa';
import type { Middleware } from 'koa';
import type { EventRecorder } from './event-recorder.js';

const INTERNAL_PREFIX = '/internal/';

/**
 * What only the services may ask the gateway: any `/internal/…` path answers 401 without the
 * internal token (compared in constant time), before its body is read. Mounted before the body
 * parser; the public routing lets these paths through and never proxies them.
 */
export function internalOnly(internalToken: string): Middleware {
  const trusted = trustGateway(internalToken);
  return async (ctx, next) => {
    if (ctx.path.startsWith(INTERNAL_PREFIX)) await trusted(ctx, next);
    else await next();
  };
}

/** `POST /internal/events`: pets and the store hand over their events for webhooks. */
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
