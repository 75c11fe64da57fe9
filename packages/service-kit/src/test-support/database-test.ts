import { test } from '@petstore/testkit/vitest';
import type { Db, MongoClient } from 'mongodb';
import { connectMongo } from '../mongo.js';

/** `it` with `db`: a database of its own for each test, named after `prefix`, dropped after it. */
export function databaseTest(prefix: string) {
  return test.extend<{ client: MongoClient; db: Db }>({
    client: async ({ mongo }, use) => {
      const client = await connectMongo(mongo.uri, {
        appName: 'service-kit-test',
      });
      await use(client);
      await client.close();
    },
    db: async ({ mongo, client }, use) => {
      const db = client.db(
        mongo.databaseName(`${prefix}_${Math.random().toString(36).slice(2)}`),
      );
      await use(db);
      await db.dropDatabase();
    },
  });
}
