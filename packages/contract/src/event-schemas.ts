import { EventIdSchema } from './ids.js';
import { InventoryItemSchema } from './store.js';
import { MessageSchema } from './messages.js';
import { OrderSchema } from './store.js';
import { PetSchema } from './pets.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';

const orderEventTypes = ['order.created', 'order.completed', 'order.cancelled'] as const;

/** What a webhook can be told (API.md, "Webhooks"). */
export const WebhookEventTypeSchema = z
  .enum([...orderEventTypes, 'message.delivered', 'pet.status_changed', 'inventory.updated'])
  .openapi('WebhookEventType', {
    description:
      '`order.*`: an order’s owner and admins; `message.delivered`: the message’s owner; `pet.status_changed`, `inventory.updated`: admins only.',
    example: 'order.created',
  });
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** The event types a customer may subscribe to: those about its own orders and messages. */
export const customerEventTypes: readonly WebhookEventType[] = [
  ...orderEventTypes,
  'message.delivered',
];

function eventOf<Types extends z.ZodTypeAny, Data extends z.ZodTypeAny>(
  types: Types,
  data: Data,
  name: string,
  what: string,
) {
  return z
    .object({
      id: EventIdSchema.openapi({
        description: 'Also sent as `webhook-id`; drop duplicates by it.',
      }),
      type: types,
      timestamp: TimestampSchema.openapi({ description: 'When the change happened.' }),
      data: data.openapi({ description: `The ${what} as the API returns it, after the change.` }),
    })
    .openapi(name);
}

export const OrderEventSchema = eventOf(
  z.enum(orderEventTypes),
  OrderSchema,
  'OrderEvent',
  'order',
);
export const MessageEventSchema = eventOf(
  z.literal('message.delivered'),
  MessageSchema,
  'MessageEvent',
  'message',
);
export const PetEventSchema = eventOf(
  z.literal('pet.status_changed'),
  PetSchema,
  'PetEvent',
  'pet',
);
export const InventoryEventSchema = eventOf(
  z.literal('inventory.updated'),
  InventoryItemSchema,
  'InventoryEvent',
  'stock entry',
);

/** What a webhook receives: parse a delivery's body with it to get the event, typed by `type`. */
export const WebhookEventSchema = z.union([
  OrderEventSchema,
  MessageEventSchema,
  PetEventSchema,
  InventoryEventSchema,
]);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** An event as a service sends it to the gateway, with the account whose resource it is. */
export const RecordedEventSchema = z.object({
  id: EventIdSchema,
  type: WebhookEventTypeSchema,
  timestamp: TimestampSchema,
  data: z.record(z.unknown()),
  accountId: z.string().min(1).max(100).optional(),
});
export type RecordedEvent = z.infer<typeof RecordedEventSchema>;
