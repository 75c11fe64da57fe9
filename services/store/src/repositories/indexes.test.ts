import { describe, expect } from 'vitest';
import { ensureIndexes } from './indexes.js';
import { it } from '../test-support/database.js';

describe('ensureIndexes', () => {
  it('creates the indexes the queries need, and can run again at every start', async ({ db }) => {
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
    expect(await keysOf('outbox')).toContainEqual({ pending: 1, nextAttemptAt: 1 });
    expect(await keysOf('inventory')).toContainEqual({ heldCount: 1 });
  });
});
