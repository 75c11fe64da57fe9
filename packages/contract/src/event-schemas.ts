import { z } from './zod.js';

/**
 * What a webhook can be told (API.md, "Webhooks"): an order's owner and admins hear of its
 * orders, a message's owner of its delivery; admins alone of the catalogue and the inventory.
 */
export const WebhookEventTypeSchema = z
  .enum([
    'order.created',
    'order.completed',
    'order.cancelled',
    'message.delivered',
    'pet.status_changed',
    'inventory.updated',
  ])
  .openapi('WebhookEventType', { description: 'A kind of event a webhook can subscribe to.' });
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

export const EventIdSchema = z
  .string()
  .regex(/^evt_[A-Za-z0-9]{1,64}$/, 'must be an id starting with evt_')
  .openapi({ example: 'evt_2Zk8qP4mT7xW1nBc' });

/** An event as a webhook receives it: the resource as the API shows it, when it changed. */
export const WebhookEventSchema = z
  .object({
    id: EventIdSchema,
    type: WebhookEventTypeSchema,
    timestamp: z.string().datetime().openapi({ example: '2026-11-23T10:00:00.000Z' }),
    data: z.record(z.unknown()).openapi({ description: 'The resource as the API returns it.' }),
  })
  .openapi('WebhookEvent', {
    description:
      'What a webhook receives, signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`).',
  });
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/**
 * An event as the service where it happened hands it to the gateway, which delivers it: with the
 * account whose resource it is (absent for the catalogue and the inventory, which only admins
 * hear of).
 */
export const RecordedEventSchema = WebhookEventSchema.extend({
  accountId: z.string().min(1).max(100).optional(),
});
export type RecordedEvent = z.infer<typeof RecordedEventSchema>;
