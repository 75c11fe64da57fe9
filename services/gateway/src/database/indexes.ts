import type { Db } from 'mongodb';
import { RATE_LIMITS_COLLECTION } from '../rate-limits/shared-windows.js';
import { ensureWebhookIndexes } from '../webhooks/webhook-collections.js';
import { gatewayCollections } from './collections.js';

/**
 * Creates the gateway's indexes; idempotent, run at start-up. The shared rate-limit windows also
 * expire by TTL where the database has it (MongoDB; the embedded database keeps one per key).
 */
export async function ensureIndexes(db: Db) {
  const { accounts, apiKeys, messages } = gatewayCollections(db);
  await accounts.createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
  await apiKeys.createIndex({ hash: 1 }, { unique: true, name: 'hash_unique' });
  await apiKeys.createIndex({ accountId: 1, createdAt: 1 }, { name: 'account_created' });
  await messages.createIndex({ status: 1, leaseUntil: 1 }, { name: 'status_lease' });
  await messages.createIndex({ pendingEventCount: 1 }, { name: 'pending_events' });
  await ensureWebhookIndexes(db);
  const windows = db.collection(RATE_LIMITS_COLLECTION);
  await windows.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
  await windows.createIndex({ expire: 1 }, { expireAfterSeconds: 0, name: 'expire_ttl' });
}
