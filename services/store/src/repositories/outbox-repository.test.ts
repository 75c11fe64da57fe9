import type { Db } from 'mongodb';
import { describe, expect } from 'vitest';
import { it as dbIt } from '../test-support/database.js';
import { ensureIndexes } from './indexes.js';
import { OutboxRepository, type OutboxEntry } from './outbox-repository.js';

const LEASE = 30_000;
const petId = 1;

/** An outbox in the test's database of its own, so no other test's entries are due in it. */
const it = dbIt.extend<{ outbox: OutboxRepository }>({
  outbox: async ({ db }, use) => {
    await ensureIndexes(db);
    await use(new OutboxRepository(db));
  },
});
const entryOf = (db: Db, id = petId) => db.collection<OutboxEntry>('outbox').findOne({ _id: id });
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('OutboxRepository', () => {
  it('keeps one entry per pet, bumping its version on every trigger', async ({ db, outbox }) => {
    await outbox.record(petId, at(0));
    await outbox.record(petId, at(10));
    expect(await entryOf(db)).toMatchObject({
      version: 2,
      attempts: 0,
      nextAttemptAt: at(10),
    });
  });

  it('records concurrent first triggers of one pet into one entry', async ({ db, outbox }) => {
    await Promise.all(Array.from({ length: 10 }, () => outbox.record(petId, at(0))));
    expect((await entryOf(db))?.version).toBe(10);
  });

  it('owes no push after a delivery only if no trigger came after it was claimed', async ({
    db,
    outbox,
  }) => {
    await outbox.record(petId, at(0));
    const claimed = await outbox.claimNext(at(1), LEASE, 'first');
    expect(claimed).toMatchObject({ petId, version: 1 });

    await outbox.record(petId, at(2)); // a trigger while the push is under way
    await outbox.delivered(claimed!);
    expect(await entryOf(db)).toMatchObject({ version: 2, pending: true });

    // Released at once, due again: the next claim pushes the newer state and settles it.
    const again = await outbox.claimNext(at(3), LEASE, 'second');
    expect(again).toMatchObject({ petId, version: 2 });
    await outbox.delivered(again!);
    expect(await entryOf(db)).toMatchObject({ version: 2, pending: false });
    expect(await outbox.claimNext(at(4), LEASE, 'third')).toBeUndefined();

    // The version goes on from there: a push never carries a version pets has seen already.
    await outbox.record(petId, at(5));
    expect(await outbox.claimNext(at(6), LEASE, 'fourth')).toMatchObject({ petId, version: 3 });
  });

  it('lets no one else claim a held entry, not even after a trigger, until its lease ends', async ({
    outbox,
  }) => {
    await outbox.record(petId, at(0));
    expect(await outbox.claimNext(at(1), LEASE, 'holder')).toMatchObject({ petId });
    await outbox.record(petId, at(2));
    expect(await outbox.claimNext(at(3), LEASE, 'other')).toBeUndefined();
    // The holder died: once the lease ran out the entry is free again.
    expect(await outbox.claimNext(at(1 + LEASE), LEASE, 'other')).toMatchObject({
      petId,
      version: 2,
    });
    await outbox.drop(petId);
  });

  it('puts a failed entry off until its retry time and counts the attempt', async ({
    db,
    outbox,
  }) => {
    await outbox.record(petId, at(0));
    const claimed = await outbox.claimNext(at(1), LEASE, 'worker');
    await outbox.retryAt(claimed!, at(500));
    expect(await entryOf(db)).toMatchObject({ attempts: 1, nextAttemptAt: at(500) });
    expect(await outbox.claimNext(at(499), LEASE, 'worker')).toBeUndefined();
    expect(await outbox.claimNext(at(500), LEASE, 'worker')).toMatchObject({ attempts: 1 });
    await outbox.drop(petId);
  });

  it('claims the most overdue entry first', async ({ outbox }) => {
    const [later, sooner] = [1, 2];
    await outbox.record(later, at(200));
    await outbox.record(sooner, at(100));
    expect((await outbox.claimNext(at(300), LEASE, 'worker'))?.petId).toBe(sooner);
    expect((await outbox.claimNext(at(300), LEASE, 'worker'))?.petId).toBe(later);
    await outbox.drop(later);
    await outbox.drop(sooner);
  });
});
