import { randomUUID } from 'node:crypto';
import type { PetstoreClient } from '@petstore/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/catalogue.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import {
  countOf,
  expectNothingLost,
  expectOnlyAnswers,
} from '../support/ledgers.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { prepareWorkload, Workload } from '../support/workload.js';

let db: DatabaseReader;
let customer: { accountId: string; api: PetstoreClient };

const api = testStackForFile(unthrottled);

beforeAll(async () => {
  db = await api.databases();
  customer = await api.signUp();
});
afterEach(async () => {
  if (!api.stack.gateway.running) await api.stack.gateway.start();
});

/** The gateway's messages, written here as the gateway writes them. */
const messages = () =>
  db.db(databaseNames.gateway).collection<{ _id: string }>('messages');

/** A message id as the gateway makes them: `msg_` and 20 base62 characters. */
const messageId = () => `msg_${randomUUID().replaceAll('-', '').slice(0, 20)}`;

/** A message the worker has not delivered, exactly as the gateway stores it when it is posted. */
function queuedMessage(text: string) {
  return {
    _id: messageId(),
    accountId: customer.accountId,
    message: text,
    status: 'queued',
    createdAt: new Date(),
    attempts: 0,
    deliveredAt: null,
  };
}

/** Polls the API for the message, for the time a delivery may take. */
function pollMessage(id: string) {
  return expect.poll(
    () => customer.api.messages.getMessage({ params: { messageId: id } }),
    {
      timeout: 20_000,
    },
  );
}

describe('a gateway restarted with messages it had not delivered', () => {
  it('delivers the messages queued while it was stopped', async () => {
    await api.stack.gateway.stop();
    const queued = ['First', 'Second', 'Third'].map((text) =>
      queuedMessage(`${text} (queued)`),
    );
    await messages().insertMany(queued);
    await api.stack.gateway.start();

    for (const message of queued) {
      await pollMessage(message._id).toMatchObject({
        status: 200,
        body: {
          id: message._id,
          message: message.message,
          status: 'delivered',
          createdAt: message.createdAt.toISOString(),
        },
      });
      const stored = await messages().findOne({ _id: message._id });
      expect(stored).toMatchObject({
        status: 'delivered',
        attempts: 1,
        deliveredAt: expect.any(Date) as Date,
      });
      // Its lease is released.
      expect(stored).not.toHaveProperty('leaseUntil');
      expect(stored).not.toHaveProperty('leaseOwner');
    }
  });

  it('delivers a message whose delivery stopped halfway, once its lease has run out', async () => {
    await api.stack.gateway.stop();
    // Claimed by a worker that died before marking it delivered.
    const cutShort = {
      ...queuedMessage('Cut short'),
      status: 'delivering',
      leaseUntil: new Date(Date.now() - 1_000),
      attempts: 1,
    };
    await messages().insertOne(cutShort);
    await api.stack.gateway.start();

    await pollMessage(cutShort._id).toMatchObject({
      status: 200,
      body: { id: cutShort._id, status: 'delivered' },
    });
    expect(await messages().findOne({ _id: cutShort._id })).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
  });

  it('delivers the messages posted just before it stopped', async () => {
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = ok(
        await customer.api.messages.sendMessage({
          body: { message: `Posted ${i}` },
        }),
        202,
      );
      posted.push(sent.body.id);
    }
    await api.stack.gateway.stop();
    await api.stack.gateway.start();

    for (const id of posted) {
      await pollMessage(id).toMatchObject({
        status: 200,
        body: { status: 'delivered' },
      });
    }
  });
});

describe('under load', () => {
  it('loses nothing when the gateway stops and starts again', async () => {
    const workload = new Workload(api.url, await prepareWorkload(api), {
      guardMs: 10_000,
    });
    await workload.throughOutage(api.stack.gateway, { during: 20 });

    // While it is down, connections are refused; one it closes as it stops may drop a request.
    expectOnlyAnswers(workload, [], { refused: true, dropped: true });
    expect(countOf(workload, 'order', 'none')).toBeGreaterThan(0);
    expect(countOf(workload, 'message', 202)).toBeGreaterThan(0);
    await expectNothingLost(workload, db);
  });
});
