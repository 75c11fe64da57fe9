import type { Db } from 'mongodb';

/**
 * Creates the store's indexes; idempotent, run at every start. Nothing here needs what FerretDB
 * lacks (TTL, partial or collation indexes): expired idempotency keys are swept by the store.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  await db.collection('orders').createIndexes([
    // A customer's orders, in id order.
    { key: { ownerId: 1, _id: 1 }, name: 'owner_id' },
    // Open orders of a pet, counted to derive its status.
    { key: { petId: 1, complete: 1, cancelled: 1 }, name: 'pet_open' },
  ]);
  await db
    .collection('idempotency_keys')
    .createIndexes([{ key: { expiresAt: 1 }, name: 'expires_at' }]);
  await db
    .collection('outbox')
    .createIndexes([{ key: { nextAttemptAt: 1 }, name: 'next_attempt_at' }]);
}
