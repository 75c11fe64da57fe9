// The gateway's database: its collections, their indexes, and the ids of their documents.
import type { Role } from '@petstore/contract';
import type { WithPendingEvents } from '@petstore/service-kit';
import type { Collection, Db } from 'mongodb';

/** `accounts`: one per customer, plus `acct_admin`. */
export interface AccountDocument {
  _id: string;
  /** Lower-cased; unique. */
  email: string;
  name: string | null;
  role: Role;
  createdAt: Date;
}

/** `api_keys`: only the key's SHA-256 is kept, never the key. */
export interface ApiKeyDocument {
  _id: string;
  accountId: string;
  /** The account's role, kept with the key so that checking a key is one read. */
  role: Role;
  /** Set on a sign-up's key until its account is stored: such a key authenticates nobody. */
  pendingSignUp?: true;
  /** SHA-256 of the key, hex; unique. */
  hash: string;
  /** The key's first 12 characters, e.g. `psk_AbCdEfGh`. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * `messages`: `queued` → `delivering` (claimed by a worker until `leaseUntil`) → `delivered`.
 * Clients see `delivering` as `queued`.
 */
/** Carries its `message.delivered` event until it is recorded for webhooks. */
export interface MessageDocument extends WithPendingEvents {
  _id: string;
  accountId: string;
  message: string;
  status: 'queued' | 'delivering' | 'delivered';
  createdAt: Date;
  leaseUntil: Date | null;
  attempts: number;
  deliveredAt: Date | null;
  /** The trace of the request that queued it, continued by its delivery. */
  traceparent?: string;
}

export interface GatewayCollections {
  accounts: Collection<AccountDocument>;
  apiKeys: Collection<ApiKeyDocument>;
  messages: Collection<MessageDocument>;
}

export function gatewayCollections(db: Db): GatewayCollections {
  return {
    accounts: db.collection<AccountDocument>('accounts'),
    apiKeys: db.collection<ApiKeyDocument>('api_keys'),
    messages: db.collection<MessageDocument>('messages'),
  };
}
