import type { Db } from 'mongodb';

/**
 * Creates the store's indexes; idempotent, run at every start. No TTL index: the embedded
 * database has none, so expired idempotency keys are swept by the store.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  const orders = db.collection('orders');
  // A customer's orders, in id order.
  await orders.createIndex({ ownerId: 1, _id: 1 }, { name: 'owner_id' });
  // The order placed under an Idempotency-Key, found again when a retry takes the key over.
  await orders.createIndex({ idempotencyKey: 1, _id: 1 }, { name: 'idempotency_key' });
  // Open orders of a pet, counted to derive its status.
  await orders.createIndex({ petId: 1, complete: 1, cancelled: 1 }, { name: 'pet_open' });
  // Orders and stock entries carrying events not yet handed to the gateway, for the relay.
  await orders.createIndex({ pendingEventCount: 1 }, { name: 'pending_events' });
  await db
    .collection('inventory')
    .createIndex({ pendingEventCount: 1 }, { name: 'pending_events' });
  // Expired keys, for the sweeper.
  await db.collection('idempotency_keys').createIndex({ expiresAt: 1 }, { name: 'expires_at' });
  // Entries with unsettled stock holds or closing marks, and closed orders whose stock may still
  // be owed, for the sweeper.
  await db.collection('inventory').createIndex({ heldCount: 1 }, { name: 'held_count' });
  await db.collection('inventory').createIndex({ closedCount: 1 }, { name: 'closed_count' });
  await orders.createIndex({ stockOwed: 1 }, { name: 'stock_owed', sparse: true });
  // Due entries, for the worker.
  await db
    .collection('outbox')
    .createIndex({ pending: 1, nextAttemptAt: 1 }, { name: 'pending_next_attempt_at' });
}
