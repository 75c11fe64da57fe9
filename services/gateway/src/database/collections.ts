import type {
  Account,
  ApiKey,
  Message,
  Role,
  Webhook,
  WebhookDelivery,
} from '@petstore/contract';
import type { Caller } from '@petstore/service-kit';
import type { Db } from 'mongodb';

/** A contract shape as stored: `_id` for `id`, and its `Times` as dates. */
type Stored<T extends { id: string }, Times extends keyof T> = Omit<
  T,
  'id' | Times
> & {
  _id: string;
} & { [K in Times]: Date | Extract<T[K], null> };

/** `email` lower-cased; unique. */
export type AccountDocument = Stored<Account, 'createdAt'> & {
  /** Written by each transaction that counts the account's keys or webhooks, to take turns. */
  turns?: number;
};

/** Only the key's SHA-256 is kept, never the key. */
export interface ApiKeyDocument extends Stored<
  ApiKey,
  'createdAt' | 'lastUsedAt'
> {
  accountId: string;
  /** The account's role, kept with the key so that checking a key is one read. */
  role: Role;
  hash: string;
  revokedAt: Date | null;
}

/**
 * `queued` → `delivering` (leased to `leaseOwner` until `leaseUntil`) → `delivered`; clients see
 * `queued`. Messages stored before the lease had an owner keep `leaseUntil: null` when not leased.
 */
export interface MessageDocument extends Omit<
  Stored<Message, 'createdAt'>,
  'status'
> {
  accountId: string;
  status: 'queued' | 'delivering' | 'delivered';
  leaseOwner?: string;
  leaseUntil?: Date | null;
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

export interface WebhookDocument extends Stored<Webhook, 'createdAt'> {
  accountId: string;
  /** The owner's role: an admin's webhook hears of every account's events. */
  role: Role;
  /** Newest first. */
  secrets: SealedSecret[];
  updatedAt: Date;
  failingSince: Date | null;
  /** The gateway delivering to it until `leaseUntil`: one gateway at a time. */
  leaseOwner?: string;
  leaseUntil?: Date;
}

/**
 * One event on its way to one webhook; its id is derived from both. It carries the event's
 * `data`, so that an attempt reads nothing else. Once it ended, the database removes it at
 * `expireAt` (a TTL index).
 */
export interface WebhookDeliveryDocument extends Stored<
  WebhookDelivery,
  'createdAt' | 'nextAttemptAt'
> {
  webhookId: string;
  eventAt: Date;
  data: Record<string, unknown>;
  lastError: string | null;
  deliveredAt?: Date;
  expireAt?: Date;
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
    deliveries: db.collection<WebhookDeliveryDocument>('webhook_deliveries'),
  };
}

/** The document `id` if `caller` may see it: its own, or any when an admin. */
export function visibleTo(caller: Caller, id: string) {
  return caller.role === 'admin'
    ? { _id: id }
    : { _id: id, accountId: caller.accountId };
}
