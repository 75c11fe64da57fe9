import type { Db } from 'mongodb';
import { refreshNameKeys } from './name-keys.js';
import { categoriesCollection, petsCollection } from './storage.js';

/**
 * Creates the indexes the queries need; idempotent, so it runs at every start-up. Lists page by
 * `_id`, so each filter is followed by `_id`. Name keys stored under an older rule are refreshed
 * before the unique index on them is made.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  await refreshNameKeys(db);
  const pets = petsCollection(db);
  await pets.createIndex({ status: 1, _id: 1 }, { name: 'status_id' });
  await pets.createIndex({ categoryId: 1, _id: 1 }, { name: 'categoryId_id' });
  // Pets carrying events not yet handed to the gateway, for the relay.
  await pets.createIndex({ pendingEventCount: 1 }, { name: 'pending_events' });
  await categoriesCollection(db).createIndex(
    { nameKey: 1 },
    { name: 'nameKey_unique', unique: true },
  );
}
