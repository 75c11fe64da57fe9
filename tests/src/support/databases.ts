import { MongoClient, type Db, type Document } from 'mongodb';

/** The databases of a running stack (`stack.database.uri`), one per service. */
export const databaseNames = {
  pets: 'petstore_pets',
  store: 'petstore_store',
  gateway: 'petstore_gateway',
} as const;

/**
 * What the services keep about themselves rather than the API's data: the single-process lease
 * a service refreshes every few seconds, and the shared rate-limit counts every request moves.
 */
const BOOKKEEPING = new Set(['process_lease', 'rate_limits']);

/** Reads the stack's databases with the official driver, to check what was or was not written. */
export class DatabaseReader {
  readonly #client: MongoClient;

  private constructor(client: MongoClient) {
    this.#client = client;
  }

  static async connect(uri: string): Promise<DatabaseReader> {
    const client = await new MongoClient(uri, {
      serverSelectionTimeoutMS: 5_000,
    }).connect();
    return new DatabaseReader(client);
  }

  db(name: string): Db {
    return this.#client.db(name);
  }

  /** One collection's documents matching `filter`, as stored. */
  find(
    database: string,
    collection: string,
    filter: Record<string, unknown>,
  ): Promise<Document[]> {
    return this.db(database).collection(collection).find(filter).toArray();
  }

  /** The collections of a database that hold the API's data, by name. */
  async dataCollections(name: string): Promise<string[]> {
    const collections = await this.db(name)
      .listCollections({}, { nameOnly: true })
      .toArray();
    return collections
      .map((collection) => collection.name)
      .filter((collection) => !BOOKKEEPING.has(collection))
      .sort();
  }

  /** Every document of every data collection of a database, by collection, in `_id` order. */
  async snapshot(name: string): Promise<Record<string, Document[]>> {
    const db = this.db(name);
    const snapshot: Record<string, Document[]> = {};
    for (const collection of await this.dataCollections(name)) {
      snapshot[collection] = await db
        .collection(collection)
        .find()
        .sort({ _id: 1 })
        .toArray();
    }
    return snapshot;
  }

  /**
   * The messages the services' outboxes still hold: status pushes the store owes pets, and events
   * not yet sent to the gateway. Both 0: the databases hold still.
   */
  async pendingWork(): Promise<{ pushes: number; events: number }> {
    const outbox = (name: string) => this.db(name).collection('outbox');
    const events = { topic: 'events' };
    return {
      pushes: await outbox(databaseNames.store).countDocuments({
        topic: 'pet-status',
      }),
      events:
        (await outbox(databaseNames.store).countDocuments(events)) +
        (await outbox(databaseNames.pets).countDocuments(events)),
    };
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}
