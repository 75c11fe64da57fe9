import { connectMongo } from '@petstore/service-kit';
import { test } from '@petstore/testkit/vitest';
import type { Db, MongoClient } from 'mongodb';

/**
 * `it` with `db`, a database of its own for one test on the file's database server: for tests of
 * what talks to Mongo, with neither a store nor a pets service running.
 */
export const it = test.extend<{ client: MongoClient; db: Db }>({
  client: [
    async ({ mongo }, use) => {
      const client = await connectMongo(mongo.uri, { appName: 'store-tests' });
      try {
        await use(client);
      } finally {
        await client.close();
      }
    },
    { scope: 'file' },
  ],
  db: async ({ mongo, client }, use) => {
    await use(client.db(mongo.databaseName('store')));
  },
});
