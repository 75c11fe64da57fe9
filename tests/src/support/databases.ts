import { MongoClient, type Db, type Document } from 'mongodb';

/** The databases of a running stack (`stack.database.uri`), one per service. */
export const databaseNames = {
  pets: 'petstore_pets',
  store: 'petstore_store',
  gateway: 'petstore_gateway',
} as const;

/** Reads the stack's databases with the official driver, to check what was or was not written. */
export class DatabaseReader {
  readonly #client: MongoClient;

  private constructor(client: MongoClient) {
    this.#client = client;
  }

  static async connect(uri: string): Promise<DatabaseReader> {
    const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 }).connect();
    return new DatabaseReader(client);
  }

  db(name: string): Db {
    return this.#client.db(name);
  }

  /** One collection's documents matching `filter`, as stored. */
  find(database: string, collection: string, filter: Record<string, unknown>): Promise<Document[]> {
    return this.db(database).collection(collection).find(filter).toArray();
  }

  /** Every document of every collection of a database, by collection, in `_id` order. */
  async snapshot(name: string): Promise<Record<string, Document[]>> {
    const db = this.db(name);
    const collections = (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((collection) => collection.name)
      .sort();
    const snapshot: Record<string, Document[]> = {};
    for (const collection of collections) {
      snapshot[collection] = await db.collection(collection).find().sort({ _id: 1 }).toArray();
    }
    return snapshot;
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}
