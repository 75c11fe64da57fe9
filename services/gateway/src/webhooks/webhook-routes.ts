import type { contract } from '@petstore/contract';
import { decodeCursor, pageOf, requireCaller } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { DeliveryRepository } from './delivery-repository.js';
import { webhookNotFound, type WebhookRepository } from './webhook-repository.js';

export interface WebhookRoutesDeps {
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  /** Called once a delivery is due now, to wake the delivery worker. */
  onWebhookDeliveryDue: () => void;
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw webhookNotFound();
  return value;
}

export function webhookRoutes({
  webhooks,
  deliveries,
  onWebhookDeliveryDue,
}: WebhookRoutesDeps): RouterImplementation<typeof contract.webhooks> {
  return {
    createWebhook: async ({ body, ctx }) => ({
      status: 201,
      body: await webhooks.create(requireCaller(ctx), body),
    }),
    listWebhooks: async ({ query, ctx }) => {
      const position = decodeCursor(query.cursor, 'time');
      const items = await webhooks.list(requireCaller(ctx), position, query.limit + 1);
      return { status: 200, body: pageOf(ctx, items, query.limit) };
    },
    getWebhook: async ({ params, ctx }) => ({
      status: 200,
      body: found(await webhooks.get(requireCaller(ctx), params.webhookId)),
    }),
    updateWebhook: async ({ params, body, ctx }) => ({
      status: 200,
      body: found(await webhooks.update(requireCaller(ctx), params.webhookId, body)),
    }),
    deleteWebhook: async ({ params, ctx }) => {
      if (!(await webhooks.delete(requireCaller(ctx), params.webhookId))) throw webhookNotFound();
      return { status: 204, body: undefined };
    },
    rotateWebhookSecret: async ({ params, ctx }) => ({
      status: 201,
      body: { secret: found(await webhooks.rotateSecret(requireCaller(ctx), params.webhookId)) },
    }),
    listWebhookDeliveries: async ({ params, query, ctx }) => {
      const caller = requireCaller(ctx);
      const position = decodeCursor(query.cursor, 'time');
      const items = await deliveries.list(caller, params.webhookId, position, query.limit + 1);
      return { status: 200, body: pageOf(ctx, items, query.limit) };
    },
    retryWebhookDelivery: async ({ params, ctx }) => {
      const caller = requireCaller(ctx);
      const delivery = await deliveries.retry(caller, params.webhookId, params.deliveryId);
      onWebhookDeliveryDue();
      return { status: 202, body: delivery };
    },
  };
}
