import type { Role, WebhookDeliveryStatus, WebhookEventType } from '@petstore/contract';
import type { Caller, WithPendingEvents } from '@petstore/service-kit';
import type { Db } from 'mongodb';

export interface AccountDocument {
  _id: string;
  /** Lower-cased; unique. */
  email: string;
  name: string | null;
  role: Role;
  createdAt: Date;
}

/** Only the key's SHA-256 is kept, never the key. */
export interface ApiKeyDocument {
  _id: string;
  accountId: string;
  /** The account's role, kept with the key so that checking a key is one read. */
  role: Role;
  /** Set until the sign-up's account is stored: such a key authenticates nobody. */
  pendingSignUp?: true;
  hash: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** `queued` → `delivering` (claimed until `leaseUntil`) → `delivered`; clients see `queued`. */
export interface MessageDocument extends WithPendingEvents {
  _id: string;
  accountId: string;
  message: string;
  status: 'queued' | 'delivering' | 'delivered';
  createdAt: Date;
  leaseUntil: Date | null;
  attempts: number;
  deliveredAt: Date | null;
  traceparent?: string;
}

export interface SealedSecret {
  sealed: string;
  createdAt: Date;
  /** Set on a replaced secret: it signs alongside the new one until then. */
  expiresAt: Date | null;
}

export interface WebhookDocument {
  _id: string;
  accountId: string;
  /** The owner's role: an admin's webhook hears of every account's events. */
  role: Role;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  /** Newest first. */
  secrets: SealedSecret[];
  createdAt: Date;
  updatedAt: Date;
  failingSince: Date | null;
  /** The gateway delivering to it until `leaseUntil`: one at a time, in event order. */
  leaseOwner?: string;
  leaseUntil?: Date;
}

export interface WebhookEventDocument {
  _id: string;
  type: WebhookEventType;
  timestamp: Date;
  data: Record<string, unknown>;
  accountId?: string;
  recordedAt: Date;
}

/** One event on its way to one webhook; its id is derived from both. */
export interface WebhookDeliveryDocument {
  _id: string;
  webhookId: string;
  eventId: string;
  type: WebhookEventType;
  eventAt: Date;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** Null once delivered or failed. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt?: Date;
}

/** The shared rate-limit windows, written by rate-limiter-flexible. */
export const RATE_LIMITS_COLLECTION = 'rate_limits';

export type GatewayCollections = ReturnType<typeof gatewayCollections>;

export function gatewayCollections(db: Db) {
  return {
    accounts: db.collection<AccountDocument>('accounts'),
    apiKeys: db.collection<ApiKeyDocument>('api_keys'),
    messages: db.collection<MessageDocument>('messages'),
    webhooks: db.collection<WebhookDocument>('webhooks'),
    events: db.collection<WebhookEventDocument>('webhook_events'),
    deliveries: db.collection<WebhookDeliveryDocument>('webhook_deliveries'),
  };
}

/** The document `id` if `caller` may see it: its own, or any when an admin. */
export function visibleTo(caller: Caller, id: string) {
  return caller.role === 'admin' ? { _id: id } : { _id: id, accountId: caller.accountId };
}
