import { createLogger } from '@petstore/service-kit';
import { describe, expect } from 'vitest';
import { it } from '../test-support/database.js';
import {
  IdempotencyRepository,
  type IdempotencyRecord,
} from '../repositories/idempotency-repository.js';
import { idempotencySweeper } from './idempotency-sweeper.js';

function record(id: string, expiresAt: Date): IdempotencyRecord {
  return {
    _id: id,
    requestHash: 'hash',
    state: 'done',
    claimToken: 'token',
    leaseExpiresAt: expiresAt,
    createdAt: new Date(expiresAt.getTime() - 1000),
    expiresAt,
  };
}

describe('the idempotency sweeper', () => {
  it('deletes expired keys at start and on every interval, and keeps the others', async ({
    db,
  }) => {
    const collection = db.collection<IdempotencyRecord>('idempotency_keys');
    const now = Date.now();
    await collection.insertMany([
      record('acct_a:expired', new Date(now - 1000)),
      record('acct_a:fresh', new Date(now + 3_600_000)),
    ]);
    const logger = createLogger({ name: 'sweeper', level: 'silent' });
    const sweeper = idempotencySweeper(new IdempotencyRepository(db), logger, 50);
    sweeper.start();
    try {
      await expect.poll(() => collection.countDocuments({ _id: 'acct_a:expired' })).toBe(0);
      // Expiring later is swept by a later pass.
      await collection.insertOne(record('acct_b:expired', new Date(Date.now() - 1)));
      await expect.poll(() => collection.countDocuments({ _id: 'acct_b:expired' })).toBe(0);
      expect(await collection.countDocuments({ _id: 'acct_a:fresh' })).toBe(1);
    } finally {
      await sweeper.stop();
    }
  });
});
