// Test support: webhooks made through the API or written straight into a test database.
import { randomBytes } from 'node:crypto';
import type {
  CreatedWebhook,
  RecordedEvent,
  Role,
  WebhookEventType,
} from '@petstore/contract';
import { callHttp } from '@petstore/testkit';
import type { Db } from 'mongodb';
import type { DeliverySettings } from '../webhooks/delivery-worker.js';
import { gatewayCollections } from '../database/collections.js';
import { newWebhookSecret, sealSecret } from '../webhooks/webhook-secret.js';

export const secretsKey = randomBytes(32);

/** Quick retries and loopback receivers. */
export function deliverySettings(
  overrides: Partial<DeliverySettings> = {},
): DeliverySettings {
  return {
    allowPrivateUrls: true,
    secretsKey,
    retryDelaysMs: [50, 50, 50],
    disableAfterMs: 3_600_000,
    pollMs: 100,
    leaseMs: 30_000,
    timeoutMs: 10_000,
    ...overrides,
  };
}

export interface SeededWebhook {
  id: string;
  secret: string;
}

/** A subscription as the API would have made it. */
export async function seedWebhook(
  db: Db,
  {
    url = 'http://127.0.0.1:9/hook',
    events = ['order.created'],
    accountId = 'acct_admin',
    role = 'admin',
    enabled = true,
  }: {
    url?: string;
    events?: WebhookEventType[];
    accountId?: string;
    role?: Role;
    enabled?: boolean;
  } = {},
): Promise<SeededWebhook> {
  const id = `wh_${randomBytes(10).toString('hex')}`;
  const secret = newWebhookSecret();
  const now = new Date();
  await gatewayCollections(db).webhooks.insertOne({
    _id: id,
    accountId,
    role,
    url,
    events,
    description: null,
    enabled,
    secrets: [
      {
        sealed: sealSecret(secret, secretsKey),
        createdAt: now,
        expiresAt: null,
      },
    ],
    createdAt: now,
    updatedAt: now,
    failingSince: null,
  });
  return { id, secret };
}

let events = 0;
// Recent, one second apart: an event older than the retention would be swept as it is delivered.
const firstEventAt = Date.now();

/** An event as pets or the store would hand it over. */
export function anEvent(overrides: Partial<RecordedEvent> = {}): RecordedEvent {
  events += 1;
  return {
    id: `evt_${String(events).padStart(4, '0')}${randomBytes(12).toString('hex')}`,
    type: 'order.created',
    timestamp: new Date(firstEventAt + events * 1000).toISOString(),
    data: { id: events, status: 'placed' },
    accountId: 'acct_a',
    ...overrides,
  };
}

/** A public address: accepted without DNS whether or not private URLs are allowed. */
export const PUBLIC_URL = 'https://93.184.216.34/petstore-hook';

/** Creates a webhook (by default for `order.created` at `PUBLIC_URL`); throws unless 201. */
export async function createWebhook(
  baseUrl: string,
  apiKey: string,
  fields: {
    url?: string;
    events?: WebhookEventType[];
    description?: string;
  } = {},
): Promise<CreatedWebhook> {
  const answer = await callHttp<CreatedWebhook>(
    baseUrl,
    'POST',
    '/v1/webhooks',
    {
      apiKey,
      body: { url: PUBLIC_URL, events: ['order.created'], ...fields },
    },
  );
  if (answer.status !== 201) {
    throw new Error(
      `creating a webhook answered ${answer.status}: ${JSON.stringify(answer.body)}`,
    );
  }
  return answer.body;
}
