import { connectMongo } from '@petstore/service-kit';
import { fileFixture, startMongo, type MongoServer } from '@petstore/testkit';
import type { Db, MongoClient } from 'mongodb';
import { test } from 'vitest';

/**
 * `it` with `db`, a database of its own for one test on the file's database server: for tests of
 * what talks to Mongo, with neither a store nor a pets service running.
 */
export const it = test.extend<{ mongo: MongoServer; client: MongoClient; db: Db }>({
  mongo: fileFixture(startMongo),
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
