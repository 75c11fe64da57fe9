import { MongoClient } from 'mongodb';
import { DatabaseNames } from './database-names.js';
import type { MongoServer } from './mongo-server.js';
import { waitForMongo } from './wait-for-mongo.js';

/** A server someone else runs (`MONGODB_URI`): only the databases given out here are dropped. */
export async function useExternalMongo(uri: string): Promise<MongoServer> {
  await waitForMongo(uri, 10_000);
  const names = new DatabaseNames();
  const stop = async () => {
    const client = new MongoClient(uri);
    try {
      await Promise.all(
        names.issued.map((name) => client.db(name).dropDatabase()),
      );
    } finally {
      await client.close();
    }
  };
  return {
    uri,
    kind: 'external',
    databaseName: (prefix) => names.next(prefix),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
