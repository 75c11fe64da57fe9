import { describe, expect } from 'vitest';
import { ensureIndexes } from './indexes.js';
import { it } from '../test-support/database.js';

describe('ensureIndexes', () => {
  it('creates the indexes the queries need, and can run again at every start', async ({
    db,
  }) => {
    await ensureIndexes(db);
    await db
      .collection('orders')
      .insertOne({ _id: 1 as never, ownerId: 'acct_a', petId: 1 });
    await ensureIndexes(db);

    type Index = { key: unknown; expireAfterSeconds?: number };
    const indexesOf = async (name: string) =>
      (await db.collection(name).listIndexes().toArray()) as Index[];
    const keysOf = async (name: string) =>
      (await indexesOf(name)).map(({ key }) => key);
    expect(await keysOf('orders')).toEqual(
      expect.arrayContaining([
        { ownerId: 1, _id: 1 },
        { petId: 1, complete: 1, cancelled: 1 },
      ]),
    );
    expect(await indexesOf('idempotency_keys')).toContainEqual(
      expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }),
    );
    expect(await keysOf('outbox')).toContainEqual({ dueAt: 1 });
  });
});
