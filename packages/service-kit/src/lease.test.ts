import { describe, expect } from 'vitest';
import { databaseTest } from './test-support/database-test.js';
import { Lease } from './lease.js';

interface Job {
  _id: string;
  owner?: string;
  until?: Date | null;
}

const it = databaseTest('lease');

const lease = new Lease<Job>({ owner: 'owner', until: 'until' });

describe('a lease', () => {
  it('is taken by one owner at a time, renewed by it, and free once released', async ({
    db,
  }) => {
    const jobs = db.collection<Job>('jobs');
    await jobs.insertMany([{ _id: 'never' }, { _id: 'unset', until: null }]);
    const take = (owner: string) =>
      jobs.findOneAndUpdate(
        { _id: 'never', ...lease.free(new Date()) },
        { $set: lease.take(owner, 60_000) },
      );
    expect(await take('a')).not.toBeNull();
    expect(await take('b')).toBeNull();
    expect(await jobs.countDocuments(lease.free(new Date()))).toBe(1);

    const renewed = await jobs.updateOne(
      { _id: 'never', ...lease.heldBy('a') },
      { $set: lease.take('a', 120_000) },
    );
    expect(renewed.modifiedCount).toBe(1);
    expect(
      (
        await jobs.updateOne(
          { _id: 'never', ...lease.heldBy('b') },
          { $unset: lease.released() },
        )
      ).modifiedCount,
    ).toBe(0);
    await jobs.updateOne(
      { _id: 'never', ...lease.heldBy('a') },
      { $unset: lease.released() },
    );
    expect(await jobs.findOne({ _id: 'never' })).toEqual({ _id: 'never' });
    expect(await take('b')).not.toBeNull();
  });

  it('is free again once it ran out: its owner died', async ({ db }) => {
    const jobs = db.collection<Job>('jobs');
    await jobs.insertOne({
      _id: 'job',
      owner: 'dead',
      until: new Date(Date.now() - 1_000),
    });
    const taken = await jobs.findOneAndUpdate(
      { _id: 'job', ...lease.free(new Date()) },
      { $set: lease.take('alive', 60_000) },
      { returnDocument: 'after' },
    );
    expect(taken?.owner).toBe('alive');
  });
});
