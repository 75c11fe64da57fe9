import { test } from '@petstore/testkit/vitest';
import { MongoClient, type Db } from 'mongodb';
import { describe, expect, vi } from 'vitest';
import { isFerretdb } from './mongo.js';
import { openServiceDatabase } from './service-database.js';
import { takeSingleProcessLease } from './single-process-lease.js';
import { captureLogs } from './test-support/captured-logs.js';

const timings = { heartbeatMs: 50, staleMs: 300 };
const logger = captureLogs().logger;

const it = test.extend<{ db: Db }>({
  db: async ({ mongo }, use) => {
    const client = await MongoClient.connect(mongo.uri);
    await use(client.db(mongo.databaseName('lease')));
    await client.close();
  },
});

const take = (db: Db, onLost = () => {}, leaseTimings = timings) =>
  takeSingleProcessLease(db, { service: 'pets', logger, onLost, timings: leaseTimings });

describe('the single-process lease', () => {
  it('refuses a second process while the first keeps its lease, naming it', async ({ db }) => {
    // Stale only after seconds: a heartbeat a loaded machine delays is not a holder gone.
    const patient = { heartbeatMs: 50, staleMs: 3_000 };
    const first = await take(db, () => {}, patient);
    try {
      await expect(take(db, () => {}, patient)).rejects.toThrow(
        new RegExp(
          `^\\[pets\\] another process of pets \\(pid ${process.pid} on .+\\) uses database ${db.databaseName}; the embedded FerretDB serves one process per service`,
        ),
      );
    } finally {
      await first.release();
    }
  });

  it('is free again at once when its holder releases it', async ({ db }) => {
    const first = await take(db);
    await first.release();
    const second = await take(db);
    await second.release();
  });

  it('takes over a lease its holder stopped refreshing (a killed process)', async ({ db }) => {
    await db.collection('process_lease').insertOne({
      _id: 'service' as never,
      holder: 'dead',
      pid: 1,
      host: 'gone',
      heartbeatAt: new Date(Date.now() - 60_000),
    });
    const lease = await take(db);
    expect(await db.collection('process_lease').countDocuments({ holder: 'dead' })).toBe(0);
    await lease.release();
  });

  it('calls onLost when another process took the lease over', async ({ db }) => {
    const onLost = vi.fn();
    const lease = await take(db, onLost);
    await db
      .collection('process_lease')
      .updateOne({ _id: 'service' as never }, { $set: { holder: 'someone else' } });
    await vi.waitUntil(() => onLost.mock.calls.length > 0, { timeout: 5_000 });
    await lease.release();
  });
});

describe('openServiceDatabase', () => {
  it('holds the lease on FerretDB only, and gives it up on close', async ({ mongo }) => {
    const database = mongo.databaseName('pets');
    const opened = await openServiceDatabase({ uri: mongo.uri, database, service: 'pets', logger });
    const leases = () => opened.client.db(database).collection('process_lease').countDocuments();
    try {
      expect(opened.singleProcess).toBe(await isFerretdb(opened.client));
      expect(await leases()).toBe(opened.singleProcess ? 1 : 0);
    } finally {
      const reader = await MongoClient.connect(mongo.uri);
      await opened.close();
      expect(await reader.db(database).collection('process_lease').countDocuments()).toBe(0);
      await reader.close();
    }
  });
});
