import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { promisify } from 'node:util';
import {
  Binary,
  BSONRegExp,
  Decimal128,
  Double,
  BSON,
  Int32,
  Long,
  MongoClient,
  ObjectId,
  Timestamp,
  type Document,
} from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnGuarded, stopGuarded } from './guarded-process.js';
import { mongoJavaServerJar, startMongoJavaServer } from './mongo-java-server.js';

const run = promisify(execFile);
const folders: string[] = [];

async function newFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-testkit-'));
  folders.push(dir);
  return dir;
}

/** The ids of the processes whose command line names `text`. */
async function processesNaming(text: string): Promise<string[]> {
  const result = await run('pgrep', ['-f', text]).catch(() => ({ stdout: '' }));
  return result.stdout.split('\n').filter(Boolean);
}

afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** What names the database's own process on its command line. */
const program = 'petstore-testdb.jar';

describe('the embedded database', () => {
  it('leaves no process behind and nothing answering after stop', async () => {
    const server = await startMongoJavaServer();
    const port = new URL(server.uri).port;
    expect(await processesNaming(`${program}.*${port}`)).not.toHaveLength(0);

    await server.stop();

    expect(await processesNaming(`${program}.*${port}`)).toEqual([]);
    const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 300 });
    await expect(client.db('admin').command({ ping: 1 })).rejects.toThrow();
    await client.close();
  });

  it('keeps the data of a given folder across restarts', async () => {
    const dataDir = await newFolder();
    const first = await startMongoJavaServer({ dataDir });
    const writer = await MongoClient.connect(first.uri);
    await writer
      .db('petstore_pets')
      .collection('pets')
      .insertOne({ _id: 1 as never, name: 'Rex' });
    await writer.close();
    await first.stop();

    await using second = await startMongoJavaServer({ dataDir });
    const reader = await MongoClient.connect(second.uri);
    const pet = await reader
      .db('petstore_pets')
      .collection('pets')
      .findOne({ _id: 1 as never });
    await reader.close();

    expect(pet).toEqual({ _id: 1, name: 'Rex' });
    expect(existsSync(dataDir)).toBe(true);
  });

  it('stops the database when the process that started it is killed', async () => {
    const dataDir = await newFolder();
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'test-support', 'hold-embedded-database.ts'),
        dataDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [uri] = (await once(holder.stdout.setEncoding('utf8'), 'data')) as [string];
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\//);
    expect(await processesNaming(`${program}.*${dataDir}`)).not.toHaveLength(0);

    holder.kill('SIGKILL');
    await once(holder, 'exit');

    await vi.waitUntil(async () => (await processesNaming(`${program}.*${dataDir}`)).length === 0, {
      timeout: 10_000,
      interval: 100,
    });
  });

  it('applies concurrent conditional updates on one document atomically, across connections', async () => {
    await using server = await startMongoJavaServer();
    const clients = await Promise.all(
      Array.from({ length: 40 }, () => MongoClient.connect(server.uri, { maxPoolSize: 1 })),
    );
    try {
      const stock = (client: MongoClient) =>
        client.db('petstore_store').collection<{ _id: number; quantity: number }>('inventory');
      const [first] = clients;
      await stock(first!).insertOne({ _id: 1, quantity: 10 });
      const taken = await Promise.all(
        clients.map((client) =>
          stock(client).findOneAndUpdate(
            { _id: 1, quantity: { $gte: 1 } },
            { $inc: { quantity: -1 } },
          ),
        ),
      );
      expect(taken.filter(Boolean)).toHaveLength(10);
      expect(await stock(first!).findOne({ _id: 1 })).toEqual({ _id: 1, quantity: 0 });
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('keeps every acknowledged write when it is killed', async () => {
    const dataDir = await newFolder();
    const first = await startMongoJavaServer({ dataDir });
    const writer = await MongoClient.connect(first.uri);
    const orders = writer.db('petstore_store').collection<{ _id: number; open: boolean }>('orders');
    await orders.insertMany(
      Array.from({ length: 200 }, (_, index) => ({ _id: index + 1, open: true })),
    );
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        orders.updateOne({ _id: index + 1, open: true }, { $set: { open: false } }),
      ),
    );
    await orders.deleteOne({ _id: 200 });
    const [pid] = await processesNaming(`${program}.*${dataDir}`);
    process.kill(Number(pid), 'SIGKILL');
    await vi.waitUntil(async () => (await processesNaming(`${program}.*${dataDir}`)).length === 0, {
      timeout: 10_000,
      interval: 50,
    });
    await writer.close();
    await first.stop();

    await using second = await startMongoJavaServer({ dataDir });
    const reader = await MongoClient.connect(second.uri);
    const kept = reader.db('petstore_store').collection<{ _id: number; open: boolean }>('orders');
    expect(await kept.countDocuments({})).toBe(199);
    expect(await kept.countDocuments({ open: false })).toBe(50);
    await reader.close();
  });

  it('exits, saying why, when its file cannot grow, and keeps every write it acknowledged', async () => {
    const dataDir = await newFolder();
    // A file size limit of 2 MiB on the process fails the write that crosses it, as a full disk.
    const limited = spawnGuarded('bash', [
      '-c',
      `ulimit -f 2048; exec java -jar ${mongoJavaServerJar()} 0 ${join(dataDir, 'petstore.mv')}`,
    ]);
    let said = '';
    limited.stderr!.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    let acknowledged = 0;
    let status: number | null;
    try {
      const [listening] = (await once(limited.stdout!.setEncoding('utf8'), 'data')) as [string];
      const address = listening.trim().split(' ').at(-1)!;
      const writer = await MongoClient.connect(`mongodb://${address}/`, {
        serverSelectionTimeoutMS: 1_000,
      });
      const orders = writer
        .db('petstore_store')
        .collection<{ _id: number; note: string }>('orders');
      await expect(
        (async () => {
          for (; acknowledged < 10_000; acknowledged++) {
            await orders.insertOne({ _id: acknowledged, note: 'x'.repeat(1_000) });
          }
        })(),
      ).rejects.toThrow();
      await writer.close();
    } finally {
      status = await stopGuarded(limited); // its own status if it has exited by then
    }

    expect(status).toBe(1);
    expect(said).toContain('the database cannot go on, its store failed: java.io.IOException');
    await using again = await startMongoJavaServer({ dataDir });
    const reader = await MongoClient.connect(again.uri);
    const kept = reader.db('petstore_store').collection('orders');
    expect(acknowledged).toBeGreaterThan(100);
    expect(await kept.countDocuments({})).toBe(acknowledged);
    await reader.close();
  });

  it('stays up while documents in one page are updated from many connections at once', async () => {
    // Each update adds or removes fields of a document whose page other connections' commits
    // are writing at that moment.
    const dataDir = await newFolder();
    await using server = await startMongoJavaServer({ dataDir });
    const client = await MongoClient.connect(server.uri, { maxPoolSize: 8 });
    try {
      const docs = client.db('petstore_store').collection<Document & { _id: number }>('pages');
      const base = Object.fromEntries(
        Array.from({ length: 500 }, (_, n) => [`field${n}`, 'x'.repeat(20)]),
      );
      const extra = Array.from({ length: 50 }, (_, n) => `extra${n}`);
      await docs.insertMany(Array.from({ length: 8 }, (_, id) => ({ _id: id, ...base })));
      await Promise.all(
        Array.from({ length: 8 }, async (_, id) => {
          for (let round = 1; round <= 250; round++) {
            await docs.updateOne(
              { _id: id },
              round % 2 === 1
                ? { $set: Object.fromEntries(extra.map((field) => [field, round])) }
                : { $unset: Object.fromEntries(extra.map((field) => [field, ''])) },
            );
          }
        }),
      );

      expect(await docs.find({}).sort({ _id: 1 }).toArray()).toEqual(
        Array.from({ length: 8 }, (_, id) => ({ _id: id, ...base })),
      );
    } finally {
      await client.close();
    }
  });

  it('keeps documents of every kind and their unique keys across restarts', async () => {
    const dataDir = await newFolder();
    const account = (n: number): Document => ({
      _id: new Int32(n),
      email: `user${n}@example.com`,
      ref: new ObjectId('0123456789abcdef01234567'),
      at: new Date(1_700_000_000_000 + n),
      price: Decimal128.fromString('1.50'),
      big: Long.fromString('9007199254740993'),
      ratio: new Double(0.5),
      none: null,
      nested: { list: [new Int32(1), 'two', { three: new Double(3) }] },
      bytes: new Binary(Buffer.from([1, 2, 3])),
      stamp: new Timestamp({ t: 1, i: 2 }),
      pattern: new BSONRegExp('^a', 'i'),
    });
    const accounts = (client: MongoClient) => client.db('petstore_gateway').collection('accounts');
    const first = await startMongoJavaServer({ dataDir });
    const writer = await MongoClient.connect(first.uri);
    await accounts(writer).createIndex({ email: 1 }, { unique: true });
    await accounts(writer).insertMany(Array.from({ length: 300 }, (_, n) => account(n)));
    await writer.close();
    await first.stop();

    await using second = await startMongoJavaServer({ dataDir });
    const reader = await MongoClient.connect(second.uri);
    const stored = await accounts(reader).findOne(
      { email: 'user42@example.com' },
      { promoteValues: false },
    );
    const duplicate = accounts(reader).insertOne({
      _id: 1000,
      email: 'user7@example.com',
    } as never);
    await expect(duplicate).rejects.toMatchObject({ code: 11000 });
    await reader.close();

    const canonical = (document: unknown) => BSON.EJSON.stringify(document, { relaxed: false });
    expect(canonical(stored)).toBe(canonical(account(42)));
  });

  it('opens a file written before documents were stored as BSON, its unique index rebuilt', async () => {
    // Written by the build before: three accounts and a unique index on their email.
    const dataDir = await newFolder();
    const written = join(import.meta.dirname, 'test-support', 'written-before-bson.mv');
    await copyFile(written, join(dataDir, 'petstore.mv'));
    await using server = await startMongoJavaServer({ dataDir });
    const client = await MongoClient.connect(server.uri);
    const accounts = client
      .db('petstore_gateway')
      .collection<{ _id: number; email: string; name: string; createdAt: Date }>('accounts');

    expect(await accounts.find({}).sort({ _id: 1 }).toArray()).toEqual(
      [1, 2, 3].map((n) => ({
        _id: n,
        email: `user${n}@example.com`,
        name: `User ${n}`,
        createdAt: new Date(Date.UTC(2026, 0, n)),
      })),
    );
    expect(await accounts.findOne({ email: 'user2@example.com' })).toMatchObject({ _id: 2 });
    const duplicate = accounts.insertOne({ _id: 4, email: 'user3@example.com' } as never);
    await expect(duplicate).rejects.toMatchObject({ code: 11000 });
    await client.close();
  });

  it('keeps its file small while a document is written again and again', async () => {
    const dataDir = await newFolder();
    await using server = await startMongoJavaServer({ dataDir });
    const client = await MongoClient.connect(server.uri);
    const counters = client
      .db('petstore_store')
      .collection<{ _id: string; value: number }>('counters');
    await counters.insertOne({ _id: 'orders', value: 0 });
    for (let written = 0; written < 2_000; written++) {
      await counters.updateOne({ _id: 'orders' }, { $inc: { value: 1 } });
    }
    await client.close();

    // Each write is a commit of its own; the space of the ones before is written over.
    const { size } = await stat(join(dataDir, 'petstore.mv'));
    expect(size).toBeLessThan(1024 * 1024);
  });

  describe('answers as MongoDB does', () => {
    type Doc = { _id: number; owner: string; open: boolean };
    let server: Awaited<ReturnType<typeof startMongoJavaServer>>;
    let client: MongoClient;
    let docs: ReturnType<ReturnType<MongoClient['db']>['collection']>;

    beforeAll(async () => {
      server = await startMongoJavaServer();
      client = await MongoClient.connect(server.uri);
      docs = client.db('petstore_store').collection<Doc>('orders') as never;
      await docs.insertMany(
        Array.from({ length: 100 }, (_, index) => ({
          _id: index + 1,
          owner: index % 10 === 3 ? 'jane' : 'joe',
          open: index % 2 === 0,
        })) as never,
      );
    });
    afterAll(async () => {
      await client.close();
      await server.stop();
    });

    const ids = (found: { _id: unknown }[]) => found.map(({ _id }) => _id);

    it('filters by _id and other conditions together', async () => {
      expect(await docs.findOne({ _id: 5, open: true } as never)).toEqual({
        _id: 5,
        owner: 'joe',
        open: true,
      });
      expect(await docs.findOne({ _id: 6, open: true } as never)).toBeNull();
      const found = await docs
        .find({ _id: { $in: [1, 2, 3, 4, 500] }, open: false } as never)
        .toArray();
      expect(ids(found).sort()).toEqual([2, 4]);
      const updated = await docs.updateOne({ _id: 7, open: false } as never, {
        $set: { owner: 'x' },
      });
      expect(updated.matchedCount).toBe(0);
    });

    it('pages in _id order from a bound, either way, with other conditions', async () => {
      expect(ids(await docs.find({}).sort({ _id: 1 }).limit(3).toArray())).toEqual([1, 2, 3]);
      expect(ids(await docs.find({}).sort({ _id: -1 }).limit(3).toArray())).toEqual([100, 99, 98]);
      const janeAfter = { owner: 'jane', _id: { $gt: 14 } };
      expect(
        ids(
          await docs
            .find(janeAfter as never)
            .sort({ _id: 1 })
            .limit(3)
            .toArray(),
        ),
      ).toEqual([24, 34, 44]);
      const janeBefore = { owner: 'jane', _id: { $lt: 44 } };
      expect(
        ids(
          await docs
            .find(janeBefore as never)
            .sort({ _id: -1 })
            .limit(2)
            .toArray(),
        ),
      ).toEqual([34, 24]);
      expect(
        ids(
          await docs
            .find({ _id: { $gte: 99 } } as never)
            .sort({ _id: 1 })
            .limit(5)
            .toArray(),
        ),
      ).toEqual([99, 100]);
      expect(ids(await docs.find({}).sort({ _id: 1 }).skip(98).limit(5).toArray())).toEqual([
        99, 100,
      ]);
    });

    it('refuses a second document for a unique key as MongoDB does', async () => {
      const keyed = client
        .db('petstore_gateway')
        .collection<{ _id: number; key?: unknown }>('keyed');
      await keyed.createIndex({ key: 1 }, { unique: true });
      await keyed.insertMany([
        { _id: 1, key: 1 },
        { _id: 2, key: '1' },
        { _id: 3, key: { a: 1, b: 2 } },
        { _id: 4, key: { b: 2, a: 1 } },
        { _id: 5 },
      ]);
      for (const key of [new Double(1), Long.fromNumber(1), { a: 1, b: 2 }, null]) {
        await expect(keyed.insertOne({ _id: 6, key })).rejects.toMatchObject({ code: 11000 });
      }
      expect(await keyed.findOne({ key: { b: 2, a: 1 } })).toEqual({ _id: 4, key: { b: 2, a: 1 } });
    });

    it('orders ids of mixed number types by value', async () => {
      const mixed = client.db('petstore_store').collection<{ _id: unknown }>('mixed');
      await mixed.insertMany([{ _id: 5 }, { _id: Long.fromNumber(3) }, { _id: 4 }]);
      expect(ids(await mixed.find({}).sort({ _id: 1 }).limit(3).toArray()).map(Number)).toEqual([
        3, 4, 5,
      ]);
    });
  });
});
