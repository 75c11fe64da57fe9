import { IdempotencyRepository } from '@petstore/service-kit';
import { MongoServerError, type Collection, type Db } from 'mongodb';
import { gatewayCollections, RATE_LIMITS_COLLECTION } from './collections.js';

/** Idempotent, run at start-up. */
export async function ensureIndexes(db: Db): Promise<void> {
  const { accounts, apiKeys, messages, webhooks, deliveries } =
    gatewayCollections(db);
  await accounts.createIndex(
    { email: 1 },
    { unique: true, name: 'email_unique' },
  );
  await apiKeys.createIndexes([
    { key: { hash: 1 }, unique: true, name: 'hash_unique' },
    // `revokedAt` before the order, so that a page of live keys reads no revoked one.
    {
      key: { accountId: 1, revokedAt: 1, createdAt: 1, _id: 1 },
      name: 'account_revoked_created',
    },
  ]);
  await dropIndex(apiKeys, 'account_created');
  await messages.createIndex(
    { status: 1, leaseUntil: 1 },
    { name: 'status_lease' },
  );
  await dropIndex(messages, 'idempotency_key_unique');
  await webhooks.createIndexes([
    { key: { accountId: 1, createdAt: 1, _id: 1 }, name: 'account_created' },
    { key: { createdAt: 1, _id: 1 }, name: 'created' },
    { key: { enabled: 1, events: 1 }, name: 'enabled_events' },
  ]);
  await deliveries.createIndexes([
    { key: { status: 1, nextAttemptAt: 1 }, name: 'status_due' },
    {
      key: { webhookId: 1, status: 1, nextAttemptAt: 1, eventAt: 1 },
      name: 'webhook_due',
    },
    { key: { webhookId: 1, createdAt: -1, _id: -1 }, name: 'webhook_log' },
    { key: { expireAt: 1 }, expireAfterSeconds: 0, name: 'expire_ttl' },
  ]);
  await new IdempotencyRepository(db).ensureIndexes();
  // A window is removed once it has ended.
  await db.collection(RATE_LIMITS_COLLECTION).createIndexes([
    { key: { key: 1 }, unique: true, name: 'key_unique' },
    { key: { expire: 1 }, expireAfterSeconds: 0, name: 'expire_ttl' },
  ]);
}

/** Drops an index a newer one replaced: already gone (or dropped by another gateway) is fine. */
async function dropIndex(
  collection: Pick<Collection, 'dropIndex'>,
  name: string,
) {
  await collection.dropIndex(name).catch((error: unknown) => {
    if (!(
      error instanceof MongoServerError && error.codeName === 'IndexNotFound'
    ))
      throw error;
  });
}
