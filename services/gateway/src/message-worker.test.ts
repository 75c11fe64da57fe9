import { connectMongo, createLogger } from '@petstore/service-kit';
import { startMongo } from '@petstore/testkit';
import type { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndexes } from './indexes.js';
import { MessageRepository, type ClaimedMessage } from './message-repository.js';
import { MessageWorker } from './message-worker.js';
import { eventually, type MongoServer } from './test-support/gateway-harness.js';

let mongo: MongoServer;
let client: MongoClient;
beforeAll(async () => {
  mongo = await startMongo();
  client = await connectMongo(mongo.uri, { appName: 'gateway-test' });
});
afterAll(async () => {
  await client.close();
  await mongo.stop();
});

const logger = createLogger({ name: 'gateway', level: 'silent' });

async function freshRepository() {
  const db = client.db(mongo.databaseName('gateway'));
  await ensureIndexes(db);
  return { db, messages: new MessageRepository(db) };
}

describe('MessageWorker', () => {
  it('delivers each queued message once when two workers share the queue', async () => {
    const { messages } = await freshRepository();
    const queued = await Promise.all(
      Array.from({ length: 20 }, (_, i) => messages.queue('acct_a', `message ${i}`)),
    );
    const delivered: string[] = [];
    const deliver = (message: ClaimedMessage) => {
      delivered.push(message.id);
      return Promise.resolve();
    };
    const workers = [1, 2].map(
      () => new MessageWorker({ messages, deliver, logger, pollMs: 20, leaseMs: 60_000 }),
    );
    workers.forEach((worker) => worker.start());
    try {
      await eventually(() => Promise.resolve(delivered.length >= queued.length ? true : undefined));
      for (const message of queued) {
        expect(
          (await messages.getVisibleTo({ accountId: 'acct_a', role: 'customer' }, message.id))
            ?.status,
        ).toBe('delivered');
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    expect([...delivered].sort()).toEqual(queued.map(({ id }) => id).sort());
  });

  it('tries a message again when delivering it failed, once its lease is over', async () => {
    const { messages } = await freshRepository();
    const message = await messages.queue('acct_a', 'flaky');
    let attempts = 0;
    const worker = new MessageWorker({
      messages,
      deliver: () => (++attempts === 1 ? Promise.reject(new Error('down')) : Promise.resolve()),
      logger,
      pollMs: 20,
      leaseMs: 100,
    });
    worker.start();
    try {
      await eventually(async () => {
        const found = await messages.getVisibleTo(
          { accountId: 'acct_a', role: 'customer' },
          message.id,
        );
        return found?.status === 'delivered' ? found : undefined;
      });
    } finally {
      await worker.stop();
    }
    expect(attempts).toBe(2);
  });

  it('shows a message being delivered as queued to its owner', async () => {
    const { messages } = await freshRepository();
    const message = await messages.queue('acct_a', 'in flight');
    const claimed = await messages.claimNext(60_000);
    expect(claimed?.id).toBe(message.id);
    expect(await messages.claimNext(60_000)).toBeUndefined();
    const seen = await messages.getVisibleTo({ accountId: 'acct_a', role: 'customer' }, message.id);
    expect(seen?.status).toBe('queued');
    expect(
      await messages.getVisibleTo({ accountId: 'acct_b', role: 'customer' }, message.id),
    ).toBeUndefined();
  });
});
