import { freePort, startMongo } from '@petstore/testkit';
import { MongoBulkWriteError, MongoServerSelectionError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { connectMongo, isDatabaseUnavailable } from './mongo.js';

describe('connectMongo', () => {
  it('returns a connected client that reads and writes', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, { appName: 'service-kit-test' });
    try {
      const pets = client
        .db(mongo.databaseName('mongo'))
        .collection<{ _id: number; name: string }>('pets');
      await pets.insertOne({ _id: 1, name: 'Rex' });
      await pets.updateOne({ _id: 1 }, { $set: { name: 'Max' } });
      expect(await pets.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'Max' });
    } finally {
      await client.close();
    }
  });

  it('applies 40 concurrent conditional updates of one document exactly 10 times when 10 can', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, { appName: 'service-kit-test' });
    try {
      const stock = client
        .db(mongo.databaseName('mongo'))
        .collection<{ _id: number; quantity: number }>('stock');
      await stock.insertOne({ _id: 1, quantity: 10 });

      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          stock.updateOne({ _id: 1, quantity: { $gte: 1 } }, { $inc: { quantity: -1 } }),
        ),
      );

      expect(results.filter((result) => result.modifiedCount === 1)).toHaveLength(10);
      expect(await stock.findOne({ _id: 1 })).toEqual({ _id: 1, quantity: 0 });
    } finally {
      await client.close();
    }
  });

  it('fails with a database-unavailable error when nothing listens', async () => {
    const error: unknown = await connectMongo(`mongodb://127.0.0.1:${await freePort()}/`, {
      appName: 'service-kit-test',
      timeoutMs: 200,
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MongoServerSelectionError);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('takes a bulk write cut by the database stopping for an outage', async () => {
    const mongo = await startMongo();
    const client = await connectMongo(mongo.uri, { appName: 'service-kit-test', timeoutMs: 300 });
    const events = client.db(mongo.databaseName('mongo')).collection<{ _id: string }>('events');
    await events.insertOne({ _id: 'first' });
    await mongo.stop();
    try {
      const error: unknown = await events
        .insertMany([{ _id: 'a' }, { _id: 'b' }], { ordered: false })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(MongoBulkWriteError);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('does not take a refused document for an outage', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, { appName: 'service-kit-test' });
    try {
      const events = client.db(mongo.databaseName('mongo')).collection<{ _id: string }>('events');
      await events.insertOne({ _id: 'a' });
      const error: unknown = await events
        .insertMany([{ _id: 'a' }, { _id: 'b' }], { ordered: false })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(MongoBulkWriteError);
      expect(isDatabaseUnavailable(error)).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('does not take a failed query for an outage', () => {
    expect(isDatabaseUnavailable(new Error('duplicate key'))).toBe(false);
  });
});
