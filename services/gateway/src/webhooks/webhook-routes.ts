// Webhooks: an account's subscriptions, their secrets and their deliveries.
import type { contract } from '@petstore/contract';
import { requireCaller } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { DeliveryLog } from './delivery-log.js';
import { decodeCursor, pageOf } from './keyset-page.js';
import { webhookNotFound, type WebhookRepository } from './webhook-repository.js';

export interface WebhookRoutesDeps {
  webhooks: WebhookRepository;
  deliveryLog: DeliveryLog;
}

/** Subscribing, reading and changing subscriptions, rotating secrets, and the delivery log. */
export function webhookRoutes({
  webhooks,
  deliveryLog,
}: WebhookRoutesDeps): RouterImplementation<typeof contract.webhooks> {
  return {
    createWebhook: async ({ body, ctx }) => {
      const created = await webhooks.create(requireCaller(ctx), body);
      return { status: 201, body: created };
    },
    listWebhooks: async ({ query, ctx }) => {
      const position = decodeCursor(query.cursor);
      const items = await webhooks.list(requireCaller(ctx), position, query.limit + 1);
      return { status: 200, body: pageOf(ctx, items, query.limit) };
    },
    getWebhook: async ({ params, ctx }) => {
      const webhook = await webhooks.get(requireCaller(ctx), params.webhookId);
      if (!webhook) throw webhookNotFound();
      return { status: 200, body: webhook };
    },
    updateWebhook: async ({ params, body, ctx }) => {
      const webhook = await webhooks.update(requireCaller(ctx), params.webhookId, body);
      if (!webhook) throw webhookNotFound();
      return { status: 200, body: webhook };
    },
    deleteWebhook: async ({ params, ctx }) => {
      if (!(await webhooks.delete(requireCaller(ctx), params.webhookId))) throw webhookNotFound();
      return { status: 204, body: undefined };
    },
    rotateWebhookSecret: async ({ params, ctx }) => {
      const secret = await webhooks.rotateSecret(requireCaller(ctx), params.webhookId);
      if (secret === undefined) throw webhookNotFound();
      return { status: 201, body: { secret } };
    },
    listWebhookDeliveries: async ({ params, query, ctx }) => {
      const position = decodeCursor(query.cursor);
      const items = await deliveryLog.list(
        requireCaller(ctx),
        params.webhookId,
        position,
        query.limit + 1,
      );
      return { status: 200, body: pageOf(ctx, items, query.limit) };
    },
    retryWebhookDelivery: async ({ params, ctx }) => {
      const delivery = await deliveryLog.retry(
        requireCaller(ctx),
        params.webhookId,
        params.deliveryId,
      );
      return { status: 202, body: delivery };
    },
  };
}
