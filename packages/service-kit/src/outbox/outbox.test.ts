import type { Db } from 'mongodb';
import { describe, expect } from 'vitest';
import { databaseTest } from '../test-support/database-test.js';
import { captureLogs } from '../test-support/captured-logs.js';
import { inTransaction } from '../transactions.js';
import { Outbox, outboxRelay, type OutboxMessage } from './outbox.js';

const it = databaseTest('outbox');

const held = (db: Db) =>
  db.collection<OutboxMessage>('outbox').find().toArray();

describe('the outbox', () => {
  it('holds a transaction’s messages exactly when the transaction commits', async ({
    client,
    db,
  }) => {
    const outbox = new Outbox(db);
    await inTransaction(client, (session) =>
      outbox.add(session, [{ topic: 'a', payload: { n: 1 } }]),
    );
    const aborted = inTransaction(client, async (session) => {
      await outbox.add(session, [{ topic: 'a', payload: { n: 2 } }]);
      throw new Error('the change failed');
    });
    await expect(aborted).rejects.toThrow('the change failed');
    expect((await held(db)).map(({ payload }) => payload)).toEqual([{ n: 1 }]);
  });

  it('gives each due message to one claim only', async ({ client, db }) => {
    const outbox = new Outbox(db);
    await inTransaction(client, (session) =>
      outbox.add(
        session,
        Array.from({ length: 5 }, (_, n) => ({ topic: 'a', payload: { n } })),
      ),
    );
    const [first, second] = await Promise.all([
      outbox.claim(3, 60_000),
      outbox.claim(3, 60_000),
    ]);
    // A claim that lost a race comes up short; the next claim takes what is left.
    const rest = await outbox.claim(10, 60_000);
    const ids = [...first, ...second, ...rest].map(({ _id }) => _id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(5);
    expect(await outbox.claim(10, 60_000)).toEqual([]);
  });
});

describe('the outbox relay', () => {
  it('sends what a commit added at once, by topic, and deletes it', async ({
    client,
    db,
  }) => {
    const outbox = new Outbox(db);
    const sent: Record<string, unknown[]> = { a: [], b: [] };
    const sender = (topic: string) => (messages: OutboxMessage[]) => {
      sent[topic]!.push(...messages.map(({ payload }) => payload));
      return Promise.resolve();
    };
    const relay = outboxRelay({
      outbox,
      senders: { a: sender('a'), b: sender('b') },
      logger: captureLogs().logger,
      // Only the commit's wake-up can send within the test.
      pollMs: 3_600_000,
    });
    relay.start();
    try {
      await inTransaction(client, (session) =>
        outbox.add(session, [
          { topic: 'a', payload: 1 },
          { topic: 'b', payload: 2 },
          { topic: 'a', payload: 3 },
        ]),
      );
      await expect.poll(() => sent).toEqual({ a: [1, 3], b: [2] });
      await expect.poll(() => held(db)).toEqual([]);
    } finally {
      await relay.stop();
    }
  });

  it('keeps what a sender refused and sends it again after a backoff', async ({
    client,
    db,
  }) => {
    const outbox = new Outbox(db);
    const logs = captureLogs();
    let refusals = 2;
    const sent: unknown[] = [];
    const relay = outboxRelay({
      outbox,
      senders: {
        a: (messages) => {
          if (refusals-- > 0)
            return Promise.reject(new Error('the receiver is down'));
          sent.push(...messages.map(({ payload }) => payload));
          return Promise.resolve();
        },
      },
      logger: logs.logger,
      pollMs: 3_600_000,
      backoff: { baseMs: 10, maxMs: 50 },
    });
    relay.start();
    try {
      await inTransaction(client, (session) =>
        outbox.add(session, [{ topic: 'a', payload: 1 }]),
      );
      await expect.poll(() => sent).toEqual([1]);
      await expect.poll(() => held(db)).toEqual([]);
      const retries = logs
        .lines()
        .filter(({ msg }) => msg === 'outbox: will retry');
      expect(retries.map(({ attempts }) => attempts)).toEqual([0, 1]);
    } finally {
      await relay.stop();
    }
  });
});
