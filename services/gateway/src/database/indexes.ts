import type { Db } from 'mongodb';
import { gatewayCollections } from './collections.js';

/**
 * Creates the gateway's indexes; idempotent, run at start-up. Only unique and compound indexes:
 * FerretDB has no TTL, partial or collation indexes.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  const { accounts, apiKeys, messages } = gatewayCollections(db);
  await accounts.createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
  await apiKeys.createIndex({ hash: 1 }, { unique: true, name: 'hash_unique' });
  await apiKeys.createIndex({ accountId: 1, createdAt: 1 }, { name: 'account_created' });
  await messages.createIndex({ status: 1, leaseUntil: 1 }, { name: 'status_lease' });
}
