// Webhooks: subscriptions, the events they hear of, and each event's delivery to each of them.
import type { Role, WebhookDeliveryStatus, WebhookEventType } from '@petstore/contract';
import type { Collection, Db } from 'mongodb';

/** A signing secret, sealed (see webhook-secret.ts): only a gateway can read it. */
export interface SealedSecret {
  sealed: string;
  createdAt: Date;
  /** Set on the previous secret when a new one replaces it: it signs alongside until then. */
  expiresAt: Date | null;
}

/** `webhooks`: one subscription; `secrets` newest first. */
export interface WebhookDocument {
  _id: string;
  accountId: string;
  /** The owner's role: an admin's webhook hears of every account's events. */
  role: Role;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  secrets: SealedSecret[];
  createdAt: Date;
  updatedAt: Date;
  /** When deliveries began to fail without a success since; null while they succeed. */
  failingSince: Date | null;
  /** The gateway delivering to it now, until `leaseUntil`: one at a time, in event order. */
  leaseOwner?: string;
  leaseUntil?: Date;
}

/** `webhook_events`: each event once, by its id; a delivery refers to it. */
export interface WebhookEventDocument {
  _id: string;
  type: WebhookEventType;
  timestamp: Date;
  data: Record<string, unknown>;
  /** The owner of the resource, for the events only its account (and admins) hear of. */
  accountId?: string;
  recordedAt: Date;
}

/**
 * `webhook_deliveries`: one event on its way to one webhook. Its id is derived from both, so an
 * event recorded twice is delivered once.
 */
export interface WebhookDeliveryDocument {
  _id: string;
  webhookId: string;
  eventId: string;
  type: WebhookEventType;
  eventAt: Date;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  /** Why the last attempt failed when no status came back (never a secret or a signature). */
  lastError: string | null;
  /** Due then while pending; null once delivered or failed. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt?: Date;
}

export interface WebhookCollections {
  webhooks: Collection<WebhookDocument>;
  events: Collection<WebhookEventDocument>;
  deliveries: Collection<WebhookDeliveryDocument>;
}

export function webhookCollections(db: Db): WebhookCollections {
  return {
    webhooks: db.collection<WebhookDocument>('webhooks'),
    events: db.collection<WebhookEventDocument>('webhook_events'),
    deliveries: db.collection<WebhookDeliveryDocument>('webhook_deliveries'),
  };
}

/** Idempotent, run at start-up with the gateway's other indexes. */
export async function ensureWebhookIndexes(db: Db): Promise<void> {
  const { webhooks, deliveries } = webhookCollections(db);
  // A customer's webhooks, oldest first; an admin's list walks every account's the same way.
  await webhooks.createIndex({ accountId: 1, createdAt: 1, _id: 1 }, { name: 'account_created' });
  await webhooks.createIndex({ createdAt: 1, _id: 1 }, { name: 'created' });
  // The subscriptions an event fans out to.
  await webhooks.createIndex({ enabled: 1, events: 1 }, { name: 'enabled_events' });
  // Due deliveries, for the worker; a webhook's log, newest first.
  await deliveries.createIndex({ status: 1, nextAttemptAt: 1 }, { name: 'status_due' });
  await deliveries.createIndex(
    { webhookId: 1, status: 1, nextAttemptAt: 1, eventAt: 1 },
    { name: 'webhook_due' },
  );
  await deliveries.createIndex({ webhookId: 1, createdAt: -1, _id: -1 }, { name: 'webhook_log' });
}
