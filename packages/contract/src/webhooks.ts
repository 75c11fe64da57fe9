import {
  EventIdSchema,
  WebhookDeliveryIdSchema,
  WebhookIdSchema,
} from './ids.js';
import {
  DeliveryTypeSchema,
  eventOf,
  InventoryEventSchema,
  MessageEventSchema,
  OrderEventSchema,
  PetEventSchema,
  WebhookEventTypeSchema,
} from './event-schemas.js';
import { lengthInCodePoints } from './text.js';
import { TimestampSchema } from './timestamps.js';
import { z } from './zod.js';
import { initContract } from '@ts-rest/core';
import { BODY_ERRORS, POST_ERRORS, v1Errors } from './errors.js';
import { at, post, type RouteMetadata } from './contract-operations.js';
import { PageQuerySchema } from './pagination.js';
import { requestBody } from './request-body.js';

/** What the gateway refuses with 422 `invalid_webhook_url` beyond the pattern, in words. */
const URL_RULE =
  'Where events are POSTed: an `https` URL (`http` too where the deployment allows private URLs), ' +
  'without a user name or password. A URL whose host is, or resolves to, a loopback, private, ' +
  'link-local or metadata address is 422 `invalid_webhook_url` unless the deployment allows ' +
  'private URLs (`WEBHOOK_ALLOW_PRIVATE_URLS=true`), and so is any other scheme; the address is ' +
  'checked again at each delivery.';

const url = z.string().url().max(2048).openapi({
  format: 'uri',
  // The scheme in any case, as URL parsing lower-cases it, and no `user:password@` before the
  // host (`\\` ends it as `/` does); the gateway checks the address.
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/\\\\?#@]+(?:[/\\\\?#][\\s\\S]*)?$',
  description: URL_RULE,
  example: 'https://hooks.example.com/petstore',
});

const events = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .max(20)
  .openapi({
    description: 'The event types to receive; each once.',
    example: ['order.created'],
  });

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
  .strict()
  .openapi('NewWebhook');
export type NewWebhook = z.infer<typeof NewWebhookSchema>;

export const WebhookPatchSchema = z
  .object({
    ...NewWebhookSchema.partial().shape,
    description: description.nullable().optional(),
    enabled: z.boolean().optional().openapi({
      description:
        'false stops deliveries; true resumes them (and restarts the failure count).',
    }),
  })
  .strict()
  .openapi('WebhookPatch');
export type WebhookPatch = z.infer<typeof WebhookPatchSchema>;

export const WebhookSchema = z
  .object({
    id: WebhookIdSchema,
    url,
    events,
    description: description.nullable(),
    enabled: z.boolean().openapi({
      description:
        'false when turned off, or after 5 days of failing deliveries.',
      example: true,
    }),
    createdAt: TimestampSchema,
  })
  .openapi('Webhook', {
    description: 'A subscription: where to POST which events.',
  });
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookTestEventSchema = eventOf(
  'WebhookTestEvent',
  ['webhook.test'],
  WebhookSchema,
  '`data` is the webhook tested, as the API returns it.',
);

/** What a webhook receives: parse a delivery's body with it to get the event, typed by `type`. */
export const WebhookEventSchema = z.union([
  OrderEventSchema,
  MessageEventSchema,
  PetEventSchema,
  InventoryEventSchema,
  WebhookTestEventSchema,
]);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export const CreatedWebhookSchema = z
  .object({ ...WebhookSchema.shape, secret })
  .openapi('CreatedWebhook', {
    description: 'The new subscription and its signing secret.',
  });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

export const WebhookSecretSchema = z
  .object({ secret })
  .openapi('WebhookSecret', {
    description:
      'The new secret; the previous one keeps signing alongside it for 24 hours.',
  });
export type WebhookSecret = z.infer<typeof WebhookSecretSchema>;

export const WebhookDeliveryStatusSchema = z
  .enum(['pending', 'delivered', 'failed'])
  .openapi('WebhookDeliveryStatus', {
    description:
      '`pending` until a 2xx answer (`delivered`) or the last retry (`failed`, about 24 hours on).',
    example: 'delivered',
  });

export const WebhookDeliverySchema = z
  .object({
    id: WebhookDeliveryIdSchema,
    eventId: EventIdSchema,
    type: DeliveryTypeSchema,
    status: WebhookDeliveryStatusSchema,
    attempts: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'Attempts made so far.', example: 1 }),
    lastStatusCode: z.number().int().nullable().openapi({
      description:
        'The HTTP status of the last attempt; null before one, or when none came back.',
      example: 200,
    }),
    nextAttemptAt: TimestampSchema.nullable().openapi({
      description:
        'When the next attempt is due; null once delivered or failed.',
    }),
    createdAt: TimestampSchema,
  })
  .openapi('WebhookDelivery', {
    description: 'One event on its way to one webhook.',
  });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

const c = initContract();

const metadata = {
  service: 'gateway',
  auth: 'key',
  stability: 'beta',
} satisfies RouteMetadata;

const webhookId = WebhookIdSchema.openapi({ description: 'The webhook’s id.' });
const WebhookPathSchema = z.object({ webhookId });

export const webhooks = c.router({
  createWebhook: {
    ...post('/webhooks', metadata),
    body: requestBody(NewWebhookSchema),
    summary: 'Create a webhook',
    description:
      'Subscribes a URL to event types and returns its signing secret, shown this once. A URL the gateway refuses (see `url`) is 422 `invalid_webhook_url`; an event type the caller may not receive (a customer: `pet.status_changed`, `inventory.updated`) is 403 `forbidden`. An account has at most 16 webhooks: one more is 409 `conflict`. The events it will receive are described under Callbacks.',
    responses: {
      201: CreatedWebhookSchema,
      ...v1Errors(
        'forbidden',
        'conflict',
        'invalid_webhook_url',
        ...POST_ERRORS,
      ),
    },
  },
  listWebhooks: {
    ...at('GET /webhooks', metadata),
    query: PageQuerySchema,
    summary: 'List webhooks',
    description:
      'The caller’s webhooks (an admin: every account’s), oldest first, never a secret.',
    responses: {
      200: z.array(WebhookSchema),
      ...v1Errors(),
    },
  },
  getWebhook: {
    ...at('GET /webhooks/:webhookId', metadata),
    pathParams: WebhookPathSchema,
    summary: 'Get a webhook',
    description: 'One of the caller’s webhooks; another account’s is 404.',
    responses: {
      200: WebhookSchema,
      ...v1Errors('not_found'),
    },
  },
  updateWebhook: {
    ...at('PATCH /webhooks/:webhookId', metadata),
    pathParams: WebhookPathSchema,
    body: requestBody(WebhookPatchSchema),
    summary: 'Update a webhook',
    description:
      'Changes the URL, the event types, the description, or turns deliveries off and on. As on creation, a refused URL is 422 `invalid_webhook_url` and an event type the caller may not receive is 403 `forbidden`.',
    responses: {
      200: WebhookSchema,
      ...v1Errors(
        ...BODY_ERRORS,
        'forbidden',
        'not_found',
        'invalid_webhook_url',
      ),
    },
  },
  deleteWebhook: {
    ...at('DELETE /webhooks/:webhookId', metadata),
    pathParams: WebhookPathSchema,
    summary: 'Delete a webhook',
    description: 'Stops every delivery to it, pending retries included.',
    responses: {
      204: c.noBody(),
      ...v1Errors('not_found'),
    },
  },
  rotateWebhookSecret: {
    ...post('/webhooks/:webhookId/secret', metadata),
    pathParams: WebhookPathSchema,
    body: c.noBody(),
    summary: 'Rotate a webhook’s secret',
    description:
      'A new signing secret, shown this once. For 24 hours deliveries carry a signature by each secret (space separated in `webhook-signature`), so a receiver can switch without missing one.',
    responses: {
      201: WebhookSecretSchema,
      ...v1Errors('not_found', 'conflict', ...POST_ERRORS),
    },
  },
  listWebhookDeliveries: {
    ...at('GET /webhooks/:webhookId/deliveries', metadata),
    pathParams: WebhookPathSchema,
    query: PageQuerySchema,
    summary: 'List a webhook’s deliveries',
    description:
      'Each event sent or to be sent to the webhook, newest first: its status, attempts, the last HTTP status and when the next attempt is due.',
    responses: {
      200: z.array(WebhookDeliverySchema),
      ...v1Errors('not_found'),
    },
  },
  retryWebhookDelivery: {
    ...post('/webhooks/:webhookId/deliveries/:deliveryId/retry', metadata),
    pathParams: WebhookPathSchema.extend({
      deliveryId: WebhookDeliveryIdSchema.openapi({
        description: 'The delivery’s id.',
      }),
    }),
    body: c.noBody(),
    summary: 'Retry a delivery',
    description:
      'Schedules another attempt now, whatever the delivery’s status; the receiver gets the same `webhook-id` again.',
    responses: {
      202: WebhookDeliverySchema,
      ...v1Errors('not_found', 'conflict', ...POST_ERRORS),
    },
  },
  testWebhook: {
    ...post('/webhooks/:webhookId/test', metadata),
    pathParams: WebhookPathSchema,
    body: c.noBody(),
    summary: 'Send a test event',
    description:
      'Sends a signed `webhook.test` event to the webhook now, whatever events it receives, so that a receiver can be checked without placing an order; `data` is the webhook. Answers with the delivery, to follow in the webhook’s deliveries. A webhook that is turned off is 409 `conflict`.',
    responses: {
      202: WebhookDeliverySchema,
      ...v1Errors('not_found', 'conflict', ...POST_ERRORS),
    },
  },
});
