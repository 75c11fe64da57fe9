import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MongoServer } from './mongo-server.js';
import { startMongo } from './start-mongo.js';

describe('startMongo', () => {
  let server: MongoServer;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    server = await startMongo();
    client = await MongoClient.connect(server.uri);
    db = client.db(server.databaseName('testkit'));
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('takes MONGODB_URI first, then the container PETSTORE_TEST_MONGO_IMAGE names, else the embedded database', () => {
    const { MONGODB_URI, PETSTORE_TEST_MONGO_IMAGE } = process.env;
    let expected = 'embedded';
    if (PETSTORE_TEST_MONGO_IMAGE) expected = 'container';
    if (MONGODB_URI) expected = 'external';
    expect(server.kind).toBe(expected);
  });

  it('hands out database names no other caller uses', () => {
    const names = new Set(
      Array.from({ length: 50 }, () => server.databaseName('pets')),
    );
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(/^pets_[0-9a-f]{8}$/);
  });

  it('inserts documents and finds them by a filter', async () => {
    const pets = db.collection<{ name: string; status: string }>('pets');
    await pets.insertMany([
      { name: 'Rex', status: 'available' },
      { name: 'Tom', status: 'sold' },
      { name: 'Kit', status: 'available' },
    ]);

    const available = await pets
      .find({ status: 'available' }, { projection: { _id: 0 } })
      .toArray();

    expect(available).toEqual(
      expect.arrayContaining([
        { name: 'Rex', status: 'available' },
        { name: 'Kit', status: 'available' },
      ]),
    );
    expect(available).toHaveLength(2);
  });

  it('surfaces a unique index violation as error code 11000', async () => {
    const categories = db.collection<{ name: string }>('categories');
    await categories.createIndex({ name: 1 }, { unique: true });
    await categories.insertOne({ name: 'Dogs' });

    const error: unknown = await categories
      .insertOne({ name: 'Dogs' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(11000);
    expect(await categories.countDocuments({ name: 'Dogs' })).toBe(1);
  });

  it('increments a counter with findOneAndUpdate, $inc and upsert', async () => {
    const counters = db.collection<{ _id: string; value: number }>('counters');
    const next = async () => {
      const counter = await counters.findOneAndUpdate(
        { _id: 'pets' },
        { $inc: { value: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return counter?.value;
    };

    expect(await next()).toBe(1);
    expect(await next()).toBe(2);
    expect(await next()).toBe(3);
    expect(await counters.findOne({ _id: 'pets' })).toEqual({
      _id: 'pets',
      value: 3,
    });
  });

  it('runs transactions and change streams, as a replica set does', async () => {
    const accounts = db.collection<{ _id: string }>('accounts');
    const keys = db.collection<{ _id: string; accountId: string }>('keys');
    const changes = accounts.watch();
    expect(await changes.tryNext()).toBeNull();

    await client.withSession((session) =>
      session.withTransaction(async () => {
        await accounts.insertOne({ _id: 'jane' }, { session });
        await keys.insertOne({ _id: 'k1', accountId: 'jane' }, { session });
      }),
    );

    expect(await changes.next()).toMatchObject({
      operationType: 'insert',
      documentKey: { _id: 'jane' },
    });
    await changes.close();
    expect(await keys.countDocuments({ accountId: 'jane' })).toBe(1);
  });

  it('sorts and pages with skip and limit', async () => {
    const orders = db.collection<{ n: number }>('orders');
    await orders.insertMany([5, 3, 9, 1, 7, 2, 8].map((n) => ({ n })));

    const page = await orders
      .find({}, { projection: { _id: 0 } })
      .sort({ n: -1 })
      .skip(2)
      .limit(3)
      .toArray();

    expect(page).toEqual([{ n: 7 }, { n: 5 }, { n: 3 }]);
  });
});
