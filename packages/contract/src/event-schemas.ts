import { EventIdSchema } from './ids.js';
import { MessageSchema } from './messages.js';
import { InventoryItemSchema, OrderSchema } from './store.js';
import { PetSchema } from './pets.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';

const orderEventTypes = [
  'order.created',
  'order.completed',
  'order.cancelled',
] as const;

/** What a webhook can be told (API.md, "Webhooks"). */
export const WebhookEventTypeSchema = z
  .enum([
    ...orderEventTypes,
    'message.delivered',
    'pet.status_changed',
    'inventory.updated',
  ])
  .openapi('WebhookEventType', {
    description:
      '`order.*`: an order’s owner and admins; `message.delivered`: the message’s owner; `pet.status_changed`, `inventory.updated`: admins only.',
    example: 'order.created',
  });
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** What a delivery carries: an event type, or `webhook.test`, sent only when asked for. */
export const DeliveryTypeSchema = z
  .enum([...WebhookEventTypeSchema.options, 'webhook.test'])
  .openapi('DeliveryType', {
    description:
      'The event’s type; `webhook.test` is sent only by `POST /v2/webhooks/{webhookId}/test`.',
    example: 'order.created',
  });
export type DeliveryType = z.infer<typeof DeliveryTypeSchema>;

/** The event types a customer may subscribe to: those about its own orders and messages. */
export const customerEventTypes: readonly WebhookEventType[] = [
  ...orderEventTypes,
  'message.delivered',
];

export function eventOf<
  const Types extends readonly [DeliveryType, ...DeliveryType[]],
  Data extends z.ZodTypeAny,
>(name: string, types: Types, data: Data, description: string) {
  return z
    .object({
      id: EventIdSchema.openapi({
        description: 'Also sent as `webhook-id`; drop duplicates by it.',
      }),
      type: z.enum(types),
      timestamp: TimestampSchema.openapi({
        description: 'When the change happened.',
      }),
      // No description of its own here: `.openapi()` on a named schema would rename or wrap it.
      data,
    })
    .openapi(name, { description });
}

const dataAfter = (what: string) =>
  `\`data\` is the ${what} as the API returns it, after the change.`;

export const OrderEventSchema = eventOf(
  'OrderEvent',
  orderEventTypes,
  OrderSchema,
  dataAfter('order'),
);
export const MessageEventSchema = eventOf(
  'MessageEvent',
  ['message.delivered'],
  MessageSchema,
  dataAfter('message'),
);
export const PetEventSchema = eventOf(
  'PetEvent',
  ['pet.status_changed'],
  PetSchema,
  dataAfter('pet'),
);
export const InventoryEventSchema = eventOf(
  'InventoryEvent',
  ['inventory.updated'],
  InventoryItemSchema,
  dataAfter('stock entry'),
);

/** An event as a service sends it to the gateway, with the account whose resource it is. */
export const RecordedEventSchema = z
  .object({
    id: EventIdSchema,
    type: WebhookEventTypeSchema,
    timestamp: TimestampSchema,
    data: z.record(z.unknown()),
    accountId: z.string().min(1).max(100).optional(),
  })
  .strict();
export type RecordedEvent = z.infer<typeof RecordedEventSchema>;
