import type { Db } from 'mongodb';

/** Run at every start. No TTL index (the embedded database has none): expired keys are swept. */
export async function ensureIndexes(db: Db): Promise<void> {
  const orders = db.collection('orders');
  const inventory = db.collection('inventory');
  await orders.createIndex({ ownerId: 1, _id: 1 }, { name: 'owner_id' });
  await orders.createIndex({ idempotencyKey: 1, _id: 1 }, { name: 'idempotency_key' });
  await orders.createIndex({ petId: 1, complete: 1, cancelled: 1 }, { name: 'pet_open' });
  await orders.createIndex({ pendingEventCount: 1 }, { name: 'pending_events' });
  await orders.createIndex({ stockOwed: 1 }, { name: 'stock_owed', sparse: true });
  await inventory.createIndex({ pendingEventCount: 1 }, { name: 'pending_events' });
  await inventory.createIndex({ heldCount: 1 }, { name: 'held_count' });
  await inventory.createIndex({ closedCount: 1 }, { name: 'closed_count' });
  await db.collection('idempotency_keys').createIndex({ expiresAt: 1 }, { name: 'expires_at' });
  await db
    .collection('outbox')
    .createIndex({ pending: 1, nextAttemptAt: 1 }, { name: 'pending_next_attempt_at' });
}
