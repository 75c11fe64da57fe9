import { createLogger, inTransaction } from '@petstore/service-kit';
import type { Db } from 'mongodb';
import { describe, expect, vi } from 'vitest';
import { it } from '../test-support/gateway-harness.js';
import { EventRecorder } from '../webhooks/event-recorder.js';
import {
  MessageRepository,
  type ClaimedMessage,
} from './message-repository.js';
import { messageWorker } from './message-worker.js';

const logger = createLogger({ name: 'gateway', level: 'silent' });

/** What a worker records a delivered message's event with, on the test's database. */
function recording(db: Db) {
  return {
    recorder: new EventRecorder(db),
    transaction: <T>(work: Parameters<typeof inTransaction<T>>[1]) =>
      inTransaction(db.client, work),
  };
}

describe('the message worker', () => {
  it('delivers each queued message once when two workers share the queue', async ({
    db,
  }) => {
    const messages = new MessageRepository(db);
    const queued = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        messages.queue('acct_a', `message ${i}`),
      ),
    );
    const delivered: string[] = [];
    const deliver = (message: ClaimedMessage) => {
      delivered.push(message.id);
      return Promise.resolve();
    };
    const workers = [1, 2].map(() =>
      messageWorker({
        messages,
        ...recording(db),
        deliver,
        logger,
        pollMs: 20,
        leaseMs: 60_000,
      }),
    );
    workers.forEach((worker) => {
      worker.start();
    });
    try {
      await vi.waitUntil(() => delivered.length >= queued.length, {
        timeout: 10_000,
      });
      for (const message of queued) {
        expect(
          (
            await messages.getVisibleTo(
              { accountId: 'acct_a', role: 'customer' },
              message.id,
            )
          )?.status,
        ).toBe('delivered');
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    expect([...delivered].sort()).toEqual(queued.map(({ id }) => id).sort());
  });

  it('delivers a message it is told of by its id at once, between its looks', async ({
    db,
  }) => {
    const messages = new MessageRepository(db);
    const delivered: string[] = [];
    const worker = messageWorker({
      messages,
      ...recording(db),
      deliver: (message) => {
        delivered.push(message.id);
        return Promise.resolve();
      },
      logger,
      pollMs: 600_000,
      leaseMs: 60_000,
    });
    worker.start();
    try {
      // The look at start finds nothing; the next is ten minutes away.
      const message = await messages.queue('acct_a', 'by id');
      worker.queued(message.id);
      await vi.waitUntil(() => delivered.length === 1, { timeout: 10_000 });
      expect(delivered).toEqual([message.id]);
    } finally {
      await worker.stop();
    }
  });

  it('tries a message again when delivering it failed, once its lease is over', async ({
    db,
  }) => {
    const messages = new MessageRepository(db);
    const message = await messages.queue('acct_a', 'flaky');
    let attempts = 0;
    const worker = messageWorker({
      messages,
      ...recording(db),
      deliver: () =>
        ++attempts === 1
          ? Promise.reject(new Error('down'))
          : Promise.resolve(),
      logger,
      pollMs: 20,
      leaseMs: 100,
    });
    worker.start();
    try {
      await vi.waitUntil(
        async () => {
          const found = await messages.getVisibleTo(
            { accountId: 'acct_a', role: 'customer' },
            message.id,
          );
          return found?.status === 'delivered';
        },
        { timeout: 10_000 },
      );
    } finally {
      await worker.stop();
    }
    expect(attempts).toBe(2);
  });

  it('shows a message being delivered as queued to its owner', async ({
    db,
  }) => {
    const messages = new MessageRepository(db);
    const message = await messages.queue('acct_a', 'in flight');
    const claimed = await messages.claim(60_000);
    expect(claimed?.id).toBe(message.id);
    expect(await messages.claim(60_000)).toBeUndefined();
    const seen = await messages.getVisibleTo(
      { accountId: 'acct_a', role: 'customer' },
      message.id,
    );
    expect(seen?.status).toBe('queued');
    expect(
      await messages.getVisibleTo(
        { accountId: 'acct_b', role: 'customer' },
        message.id,
      ),
    ).toBeUndefined();
  });
});
