import { MongoClient } from 'mongodb';
import { expect } from 'vitest';

/** The databases of a stack: every document the API keeps is in one of them. */
const DATABASES = ['petstore_pets', 'petstore_store', 'petstore_gateway'] as const;

/**
 * Fields that change without any client writing: the gateway records when a key was last used
 * in the background, whatever the request it made.
 */
const VOLATILE_FIELDS: Record<string, string[]> = {
  'petstore_gateway.api_keys': ['lastUsedAt'],
};

/** Every document of every collection, keyed `database.collection`, in `_id` order. */
export type DatabaseState = Record<string, Record<string, unknown>[]>;

/** Reads the stack's databases with the official driver, to tell what a request wrote. */
export class DatabaseStateReader implements AsyncDisposable {
  readonly #client: MongoClient;

  private constructor(client: MongoClient) {
    this.#client = client;
  }

  static async connect(uri: string): Promise<DatabaseStateReader> {
    return new DatabaseStateReader(
      await new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 }).connect(),
    );
  }

  /** Every document the API keeps, volatile fields left out. */
  async read(): Promise<DatabaseState> {
    const state: DatabaseState = {};
    for (const name of DATABASES) {
      const db = this.#client.db(name);
      const collections = await db.listCollections({}, { nameOnly: true }).toArray();
      for (const { name: collection } of collections.sort((a, b) => a.name.localeCompare(b.name))) {
        const key = `${name}.${collection}`;
        const documents = await db.collection(collection).find().sort({ _id: 1 }).toArray();
        state[key] = documents.map((document) => {
          const kept: Record<string, unknown> = { ...document };
          for (const field of VOLATILE_FIELDS[key] ?? []) delete kept[field];
          return kept;
        });
      }
    }
    return state;
  }

  /** How many documents each collection holds. */
  async counts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const name of DATABASES) {
      const db = this.#client.db(name);
      for (const { name: collection } of await db
        .listCollections({}, { nameOnly: true })
        .toArray()) {
        counts[`${name}.${collection}`] = await db.collection(collection).countDocuments();
      }
    }
    return counts;
  }

  /** One collection's documents matching `filter`, as stored. */
  find(database: (typeof DATABASES)[number], collection: string, filter: Record<string, unknown>) {
    return this.#client.db(database).collection(collection).find(filter).toArray();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#client.close();
  }
}

/**
 * Counter documents hand out ids. A create refused by the database itself (a duplicate name
 * found by the unique index) has already spent the id it took: ids stay unique and are never
 * reused, but may skip. So a counter may move forward; nothing else may change.
 */
const isCounters = (collection: string) => collection.endsWith('.counters');

/** Fails naming the first collection that differs: what a refused request wrote. */
export function expectNothingWritten(before: DatabaseState, after: DatabaseState): void {
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
      expect(now?.[index]?.value, `${collection} ${String(counter._id)}`).toBeGreaterThanOrEqual(
        counter.value as number,
      );
    });
  }
}
