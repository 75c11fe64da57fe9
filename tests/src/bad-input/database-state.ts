import { expect } from 'vitest';
import { databaseNames, type DatabaseReader } from '../support/databases.js';

/**
 * Fields that change without any client writing: the gateway records when a key was last used
 * in the background, whatever the request it made.
 */
const VOLATILE_FIELDS: Record<string, string[]> = {
  [`${databaseNames.gateway}.api_keys`]: ['lastUsedAt'],
};

/**
 * An `Idempotency-Key` remembers a refusal that executed (409 `insufficient_stock`, 422
 * `unknown_pet`), as API.md asks: the one write a refused request may make.
 */
const KEY_RECORDS = `${databaseNames.store}.idempotency_keys`;
const isRemembered = (key: string, document: Record<string, unknown>) =>
  key === KEY_RECORDS &&
  (document.response as { status: number }).status >= 400;

/** Every document of every collection, keyed `database.collection`, in `_id` order. */
export type DatabaseState = Record<string, Record<string, unknown>[]>;

/** Every document the API keeps, volatile fields left out. */
export async function readState(
  reader: DatabaseReader,
): Promise<DatabaseState> {
  const state: DatabaseState = {};
  for (const name of Object.values(databaseNames)) {
    for (const [collection, documents] of Object.entries(
      await reader.snapshot(name),
    )) {
      const key = `${name}.${collection}`;
      state[key] = documents
        .filter((document) => !isRemembered(key, document))
        .map((document) => {
          const kept: Record<string, unknown> = { ...document };
          for (const field of VOLATILE_FIELDS[key] ?? []) delete kept[field];
          return kept;
        });
    }
  }
  return state;
}

/** How many documents each collection holds. */
export async function documentCounts(
  reader: DatabaseReader,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of Object.values(databaseNames)) {
    for (const collection of await reader.dataCollections(name)) {
      const key = `${name}.${collection}`;
      const filter =
        key === KEY_RECORDS ? { 'response.status': { $lt: 400 } } : {};
      counts[key] = await reader
        .db(name)
        .collection(collection)
        .countDocuments(filter);
    }
  }
  return counts;
}

/**
 * Counter documents hand out ids. A create refused by the database itself (a duplicate name
 * found by the unique index) has already spent the id it took: ids stay unique and are never
 * reused, but may skip. So a counter may move forward; nothing else may change.
 */
const isCounters = (collection: string) => collection.endsWith('.counters');

/** Fails naming the first collection that differs: what a refused request wrote. */
export function expectNothingWritten(
  before: DatabaseState,
  after: DatabaseState,
): void {
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  for (const [collection, documents] of Object.entries(before)) {
    const now = after[collection];
    if (!isCounters(collection)) {
      expect(now, collection).toEqual(documents);
      continue;
    }
    expect(
      now?.map((counter) => counter._id),
      collection,
    ).toEqual(documents.map((counter) => counter._id));
    documents.forEach((counter, index) => {
      expect(
        now?.[index]?.value,
        `${collection} ${String(counter._id)}`,
      ).toBeGreaterThanOrEqual(counter.value as number);
    });
  }
}
