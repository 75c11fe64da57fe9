import { setTimeout as sleep } from 'node:timers/promises';
import { startMongo } from '@petstore/testkit';
import {
  MongoNotConnectedError,
  type MongoClient,
  type ServerHeartbeatStartedEvent,
} from 'mongodb';
import { describe, expect, it } from 'vitest';
import { connectMongo } from './mongo.js';

/** connectMongo's timeout here; a heartbeat counts as hung after 2 × this + 1 s. */
const TIMEOUT_MS = 200;

/**
 * What the driver emits when its monitor starts a polling heartbeat. The real hang (a heartbeat
 * started on a connection the restarting database is closing, which then never ends) is a race
 * that a database restart under load hits now and then; here the heartbeat is started and never
 * ended on purpose.
 */
function heartbeatThatNeverEnds(client: MongoClient): void {
  const event = { connectionId: 'test', awaited: false } as ServerHeartbeatStartedEvent;
  client.emit('serverHeartbeatStarted', event);
}

function opened(client: MongoClient): Promise<void> {
  return new Promise((resolve) => client.once('topologyOpening', () => resolve()));
}

async function ping(client: MongoClient): Promise<unknown> {
  return client.db('admin').command({ ping: 1 });
}

describe('a client from connectMongo', () => {
  it('connects again by itself when a heartbeat of its monitor never ends', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, {
      appName: 'hung-monitor-test',
      timeoutMs: TIMEOUT_MS,
    });
    try {
      const reopened = opened(client);
      heartbeatThatNeverEnds(client);
      await reopened;
      expect(await ping(client)).toMatchObject({ ok: 1 });
    } finally {
      await client.close();
    }
  });

  it('leaves an awaited heartbeat alone, however long it lasts', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, {
      appName: 'hung-monitor-test',
      timeoutMs: TIMEOUT_MS,
    });
    try {
      let reopened = false;
      client.once('topologyOpening', () => (reopened = true));
      const event = { connectionId: 'test', awaited: true } as ServerHeartbeatStartedEvent;
      client.emit('serverHeartbeatStarted', event);
      await sleep(4 * TIMEOUT_MS + 1_000);
      expect(reopened).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('stays closed once its owner closes it', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, {
      appName: 'hung-monitor-test',
      timeoutMs: TIMEOUT_MS,
    });
    heartbeatThatNeverEnds(client);
    await client.close();
    await sleep(4 * TIMEOUT_MS + 1_000);
    await expect(ping(client)).rejects.toBeInstanceOf(MongoNotConnectedError);
  });
});
