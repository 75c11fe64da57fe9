import { IdempotencyRepository, Outbox } from '@petstore/service-kit';
import type { Db } from 'mongodb';

/** Run at every start; creating an index that exists changes nothing. */
export async function ensureIndexes(db: Db): Promise<void> {
  const orders = db.collection('orders');
  await orders.createIndex({ ownerId: 1, _id: 1 }, { name: 'owner_id' });
  await orders.createIndex(
    { petId: 1, complete: 1, cancelled: 1 },
    { name: 'pet_open' },
  );
  await new IdempotencyRepository(db).ensureIndexes();
  await new Outbox(db).ensureIndexes();
}
