import { EventIdSchema, WebhookDeliveryIdSchema, WebhookIdSchema } from './ids.js';
import { WebhookEventTypeSchema } from './event-schemas.js';
import { lengthInCodePoints } from './text.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';

const url = z.string().url().max(2048).openapi({
  format: 'uri',
  description:
    'Where events are POSTed: `https`, resolving only to public addresses (checked again at each delivery).',
  example: 'https://hooks.example.com/petstore',
});

const events = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .max(20)
  .openapi({ description: 'The event types to receive; each once.', example: ['order.created'] });

const description = lengthInCodePoints(z.string(), { max: 500 }).openapi({
  description: 'What the webhook is for, up to 500 characters.',
  example: 'Order notifications for the warehouse',
});

const secret = z.string().openapi({
  description:
    'The signing secret (`whsec_` + base64), shown only when created or rotated: verify deliveries with any Standard Webhooks library.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const NewWebhookSchema = z
  .object({ url, events, description: description.optional() })
  .openapi('NewWebhook');
export type NewWebhook = z.infer<typeof NewWebhookSchema>;

export const WebhookPatchSchema = z
  .object({
    url: url.optional(),
    events: events.optional(),
    description: description.nullable().optional(),
    enabled: z.boolean().optional().openapi({
      description: 'false stops deliveries; true resumes them (and restarts the failure count).',
    }),
  })
  .openapi('WebhookPatch');
export type WebhookPatch = z.infer<typeof WebhookPatchSchema>;

export const WebhookSchema = z
  .object({
    id: WebhookIdSchema,
    url,
    events,
    description: description.nullable(),
    enabled: z.boolean().openapi({
      description: 'false when turned off, or after 5 days of failing deliveries.',
      example: true,
    }),
    createdAt: TimestampSchema,
  })
  .openapi('Webhook', { description: 'A subscription: where to POST which events.' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const CreatedWebhookSchema = WebhookSchema.extend({ secret }).openapi('CreatedWebhook');
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

export const WebhookSecretSchema = z.object({ secret }).openapi('WebhookSecret', {
  description: 'The new secret; the previous one keeps signing alongside it for 24 hours.',
});
export type WebhookSecret = z.infer<typeof WebhookSecretSchema>;

export const WebhookDeliveryStatusSchema = z
  .enum(['pending', 'delivered', 'failed'])
  .openapi('WebhookDeliveryStatus', {
    description:
      '`pending` until a 2xx answer (`delivered`) or the last retry (`failed`, about 24 hours on).',
    example: 'delivered',
  });
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatusSchema>;

export const WebhookDeliverySchema = z
  .object({
    id: WebhookDeliveryIdSchema,
    eventId: EventIdSchema,
    type: WebhookEventTypeSchema,
    status: WebhookDeliveryStatusSchema,
    attempts: z.number().int().min(0).openapi({ description: 'Attempts made so far.', example: 1 }),
    lastStatusCode: z.number().int().nullable().openapi({
      description: 'The HTTP status of the last attempt; null before one, or when none came back.',
      example: 200,
    }),
    nextAttemptAt: TimestampSchema.nullable().openapi({
      description: 'When the next attempt is due; null once delivered or failed.',
    }),
    createdAt: TimestampSchema,
  })
  .openapi('WebhookDelivery', { description: 'One event on its way to one webhook.' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
