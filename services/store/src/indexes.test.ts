import { connectMongo } from '@petstore/service-kit';
import { startMongo } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { ensureIndexes } from './indexes.js';

describe('ensureIndexes', () => {
  it('creates the indexes the queries need, and can run again at every start', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, { appName: 'indexes-tests' });
    try {
      const db = client.db(mongo.databaseName('store'));
      await ensureIndexes(db);
      await db.collection('orders').insertOne({ _id: 1 as never, ownerId: 'acct_a', petId: 1 });
      await ensureIndexes(db);

      const keysOf = async (name: string) =>
        (await db.collection(name).listIndexes().toArray()).map(
          (index: { key: unknown }) => index.key,
        );
      expect(await keysOf('orders')).toEqual(
        expect.arrayContaining([
          { ownerId: 1, _id: 1 },
          { petId: 1, complete: 1, cancelled: 1 },
          { idempotencyKey: 1, _id: 1 },
        ]),
      );
      expect(await keysOf('idempotency_keys')).toContainEqual({ expiresAt: 1 });
      expect(await keysOf('outbox')).toContainEqual({ nextAttemptAt: 1 });
      expect(await keysOf('inventory')).toContainEqual({ heldCount: 1 });
    } finally {
      await client.close();
    }
  });
});
