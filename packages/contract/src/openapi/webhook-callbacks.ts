import type { CallbacksObject, ParameterObject } from 'openapi3-ts/oas30';
import {
  InventoryEventSchema,
  MessageEventSchema,
  OrderEventSchema,
  PetEventSchema,
  type DeliveryType,
} from '../event-schemas.js';
import { WebhookTestEventSchema } from '../webhooks.js';

/** The payload schemas of the events, as components the callbacks refer to. */
export const eventSchemas = {
  OrderEvent: OrderEventSchema,
  MessageEvent: MessageEventSchema,
  PetEvent: PetEventSchema,
  InventoryEvent: InventoryEventSchema,
  WebhookTestEvent: WebhookTestEventSchema,
};

const summaries: Record<DeliveryType, string> = {
  'order.created': 'An order was placed.',
  'order.completed': 'An order was marked complete.',
  'order.cancelled':
    'An open order was cancelled; its quantity went back to stock.',
  'message.delivered': 'A message was delivered.',
  'pet.status_changed': 'A pet’s status changed (admins only).',
  'inventory.updated': 'A pet’s stock was set (admins only).',
  'webhook.test':
    'Sent when asked for by `POST /v2/webhooks/{webhookId}/test`.',
};

/** Each event type and the component its payload is. */
const events = Object.entries(eventSchemas).flatMap(([component, schema]) =>
  schema.shape.type.options.map((type) => [type, component] as const),
);

const signatureHeaders: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The event’s id, the same on every retry: drop a delivery whose id you have seen.',
    schema: { type: 'string', example: 'evt_2Zk8qP4mT7xW1nBc' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'When this attempt was signed, in Unix seconds; refuse one far from your clock.',
    schema: { type: 'integer', format: 'int64', example: 1795600000 },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the secret’s bytes (after `whsec_`); two, space separated, while a rotated secret still signs.',
    schema: {
      type: 'string',
      example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    },
  },
];

/**
 * Webhook deliveries as callbacks of `createWebhook`: OpenAPI 3.0 has no `webhooks`. `suffix`
 * ends their operationIds as it ends the operationId of the `createWebhook` they belong to
 * (`V1`), so that each version's are unique.
 */
export const webhookCallbacks = (suffix: string): CallbacksObject =>
  Object.fromEntries(
    events.map(([type, component]) => [
      type,
      {
        '{$request.body#/url}': {
          post: {
            operationId: `${type.replace(/[._]([a-z])/g, (_, letter: string) => letter.toUpperCase())}Event${suffix}`,
            summary: `${type}: ${summaries[type]}`,
            description:
              'Answer 2xx within 10 s. Anything else, a timeout or a redirect is retried with exponential backoff and jitter for about 24 hours (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then marked `failed`; a webhook failing for 5 days is disabled. Delivery is at least once and not in order: drop duplicates by `webhook-id`, order by the event’s `timestamp`.',
            // The receiver authenticates a delivery by its signature, not by a scheme of this API.
            security: [],
            parameters: signatureHeaders,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: { $ref: `#/components/schemas/${component}` },
                },
              },
            },
            responses: {
              '200': { description: 'Received (any 2xx).' },
              '410': {
                description:
                  'Not received: retried like any answer that is not 2xx.',
              },
            },
          },
        },
      },
    ]),
  );
