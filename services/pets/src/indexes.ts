import {
  IdempotencyRepository,
  isDuplicateKey,
  Outbox,
} from '@petstore/service-kit';
import type { Db } from 'mongodb';
import { categoriesCollection, nameKeyOf, petsCollection } from './storage.js';

/** Idempotent, so it runs at every start-up. Lists page by `_id`, so filters end with `_id`. */
export async function ensureIndexes(db: Db): Promise<void> {
  await refreshNameKeys(db);
  const pets = petsCollection(db);
  await pets.createIndex({ status: 1, _id: 1 }, { name: 'status_id' });
  await pets.createIndex({ categoryId: 1, _id: 1 }, { name: 'categoryId_id' });
  await categoriesCollection(db).createIndex(
    { nameKey: 1 },
    { name: 'nameKey_unique', unique: true },
  );
  await new Outbox(db).ensureIndexes();
  await new IdempotencyRepository(db).ensureIndexes();
}

/**
 * Brings every stored `nameKey` to what `nameKeyOf` makes of its name today. Of two names that
 * were distinct under the older rule and are the same now, the later one keeps its old key.
 */
export async function refreshNameKeys(db: Db): Promise<void> {
  const categories = categoriesCollection(db);
  const stored = await categories
    .find({}, { projection: { name: 1, nameKey: 1 } })
    .sort({ _id: 1 })
    .toArray();
  for (const { _id, name, nameKey } of stored) {
    const current = nameKeyOf(name);
    if (current === nameKey) continue;
    try {
      await categories.updateOne({ _id, name }, { $set: { nameKey: current } });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
