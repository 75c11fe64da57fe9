import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startMongo } from '@petstore/testkit';
import {
  MongoBulkWriteError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  type Collection,
  type MongoClient,
  type ServerHeartbeatStartedEvent,
} from 'mongodb';
import { describe, expect, it } from 'vitest';
import {
  connectMongo,
  isDatabaseUnavailable,
  isDuplicateKey,
} from './mongo.js';

/** A database of its own and a client from connectMongo, both closed on dispose. */
async function connected(timeoutMs?: number) {
  const mongo = await startMongo();
  const client = await connectMongo(mongo.uri, {
    appName: 'service-kit-test',
    timeoutMs,
  });
  const db = client.db(mongo.databaseName('mongo'));
  const close = async () => {
    await client.close();
    await mongo.stop();
  };
  return { mongo, client, db, [Symbol.asyncDispose]: close };
}

/** An unordered insert of `a` and `b` into `events`, and what it threw. */
function insertTwo(events: Collection<{ _id: string }>) {
  return events
    .insertMany([{ _id: 'a' }, { _id: 'b' }], { ordered: false })
    .catch((thrown: unknown) => thrown);
}

describe('connectMongo', () => {
  it('returns a connected client that reads and writes', async () => {
    await using mongo = await connected();
    const pets = mongo.db.collection<{ _id: number; name: string }>('pets');
    await pets.insertOne({ _id: 1, name: 'Rex' });
    await pets.updateOne({ _id: 1 }, { $set: { name: 'Max' } });
    expect(await pets.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'Max' });
  });

  it('applies 40 concurrent conditional updates of one document exactly 10 times when 10 can', async () => {
    await using mongo = await connected();
    const stock = mongo.db.collection<{ _id: number; quantity: number }>(
      'stock',
    );
    await stock.insertOne({ _id: 1, quantity: 10 });

    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        stock.updateOne(
          { _id: 1, quantity: { $gte: 1 } },
          { $inc: { quantity: -1 } },
        ),
      ),
    );

    expect(results.filter((result) => result.modifiedCount === 1)).toHaveLength(
      10,
    );
    expect(await stock.findOne({ _id: 1 })).toEqual({ _id: 1, quantity: 0 });
  });

  it('fails with a database-unavailable error when nothing listens', async () => {
    const error: unknown = await connectMongo(
      `mongodb://127.0.0.1:${await freePort()}/`,
      {
        appName: 'service-kit-test',
        timeoutMs: 200,
      },
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MongoServerSelectionError);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('takes a bulk write cut by the database stopping for an outage', async () => {
    await using mongo = await connected(300);
    const events = mongo.db.collection<{ _id: string }>('events');
    await events.insertOne({ _id: 'first' });
    await mongo.mongo.stop();
    const error = await insertTwo(events);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('does not take a refused document for an outage', async () => {
    await using mongo = await connected();
    const events = mongo.db.collection<{ _id: string }>('events');
    await events.insertOne({ _id: 'a' });
    const error = await insertTwo(events);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('takes a write to a socket the database closed for an outage', () => {
    const ended = Object.assign(
      new Error('This socket has been ended by the other party'),
      {
        code: 'EPIPE',
      },
    );
    expect(isDatabaseUnavailable(ended)).toBe(true);
  });

  it('does not take a failed query for an outage', () => {
    expect(isDatabaseUnavailable(new Error('duplicate key'))).toBe(false);
  });
});

/** connectMongo's timeout here; a heartbeat counts as hung after 2 × this + 1 s. */
const TIMEOUT_MS = 200;

/**
 * What the driver emits when its monitor starts a heartbeat. The real hang (a heartbeat started on
 * a connection the restarting database is closing, which then never ends) is a race that a
 * restart under load hits now and then; here the heartbeat is started and never ended on purpose.
 */
function heartbeatStarted(client: MongoClient, awaited = false): void {
  client.emit('serverHeartbeatStarted', { connectionId: 'test', awaited });
}

const ping = (client: MongoClient) => client.db('admin').command({ ping: 1 });

/**
 * Resolves while the client's monitor waits between heartbeats of its own, so that none of them
 * ends a heartbeat started here: just after it starts an awaited one, on a server that streams
 * them (a replica set member keeps it open until it has news, or for 10 s); after 2 s, on one that
 * is polled every 10 s.
 */
function betweenHeartbeats(client: MongoClient): Promise<void> {
  return new Promise((resolve) => {
    const started = (event: ServerHeartbeatStartedEvent) => {
      if (event.awaited) done();
    };
    const timer = setTimeout(() => {
      done();
    }, 2_000);
    const done = () => {
      clearTimeout(timer);
      client.off('serverHeartbeatStarted', started);
      resolve();
    };
    client.on('serverHeartbeatStarted', started);
  });
}

describe('a client from connectMongo', () => {
  it('connects again by itself when a heartbeat of its monitor never ends', async () => {
    await using mongo = await connected(TIMEOUT_MS);
    const reopened = new Promise((resolve) =>
      mongo.client.once('topologyOpening', resolve),
    );
    await betweenHeartbeats(mongo.client);
    heartbeatStarted(mongo.client);
    await reopened;
    expect(await ping(mongo.client)).toMatchObject({ ok: 1 });
  });

  it('leaves an awaited heartbeat alone, however long it lasts', async () => {
    await using mongo = await connected(TIMEOUT_MS);
    let reopened = false;
    mongo.client.once('topologyOpening', () => {
      reopened = true;
    });
    heartbeatStarted(mongo.client, true);
    await sleep(4 * TIMEOUT_MS + 1_000);
    expect(reopened).toBe(false);
  });

  it('stays closed once its owner closes it', async () => {
    await using mongo = await connected(TIMEOUT_MS);
    heartbeatStarted(mongo.client);
    await mongo.client.close();
    await sleep(4 * TIMEOUT_MS + 1_000);
    await expect(ping(mongo.client)).rejects.toBeInstanceOf(
      MongoNotConnectedError,
    );
  });
});

describe('isDuplicateKey', () => {
  it('recognises MongoDB’s duplicate key error', () => {
    const error = new MongoServerError({
      code: 11000,
      errmsg: 'E11000 duplicate key error',
    });
    expect(isDuplicateKey(error)).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(
      isDuplicateKey(new MongoServerError({ code: 1, errmsg: 'disk full' })),
    ).toBe(false);
    expect(isDuplicateKey(new Error('E11000 duplicate key error'))).toBe(false);
  });
});
