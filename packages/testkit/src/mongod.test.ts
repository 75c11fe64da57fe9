import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from './free-port.js';
import { startMongod } from './mongod.js';

const run = promisify(execFile);
const folders: string[] = [];

async function newFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-testkit-'));
  folders.push(dir);
  return dir;
}

/** The ids of the mongod processes (not the shells around them) whose command line names `text`. */
async function mongodsNaming(text: string): Promise<string[]> {
  const pattern = `^[^ ]*mongod .*${text}`;
  const result = await run('pgrep', ['-f', pattern]).catch(() => ({
    stdout: '',
  }));
  return result.stdout.split('\n').filter(Boolean);
}

/** The folder a mongod keeps its data in, from its command line. */
async function dbPathOf(port: string): Promise<string> {
  const [pid] = await mongodsNaming(`--port ${port} `);
  const { stdout } = await run('ps', ['-o', 'args=', '-p', String(pid)]);
  return /--dbpath (\S+)/.exec(stdout)?.[1] ?? '';
}

afterEach(async () => {
  await Promise.all(
    folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })),
  );
});

describe('the embedded mongod', () => {
  it('leaves no process, no folder and nothing answering behind after stop', async () => {
    const server = await startMongod();
    const port = new URL(server.uri).port;
    const dbPath = await dbPathOf(port);
    expect(existsSync(dbPath)).toBe(true);

    await server.stop();

    expect(await mongodsNaming(`--port ${port} `)).toEqual([]);
    expect(existsSync(dbPath)).toBe(false);
    const client = new MongoClient(server.uri, {
      serverSelectionTimeoutMS: 300,
    });
    await expect(client.db('admin').command({ ping: 1 })).rejects.toThrow();
    await client.close();
  });

  it('runs as the primary of a one-member replica set, which is what the driver is told', async () => {
    await using server = await startMongod();
    const client = await MongoClient.connect(server.uri);
    try {
      const hello = await client.db('admin').command({ hello: 1 });
      expect(hello).toMatchObject({
        setName: 'petstore',
        isWritablePrimary: true,
      });
      expect(hello.hosts).toEqual([`127.0.0.1:${new URL(server.uri).port}`]);
      expect(new URL(server.uri).searchParams.get('replicaSet')).toBe(
        'petstore',
      );
    } finally {
      await client.close();
    }
  });

  it('commits a transaction over two collections whole, and aborts one whole', async () => {
    await using server = await startMongod();
    const client = await MongoClient.connect(server.uri);
    try {
      const db = client.db(server.databaseName('store'));
      const orders = db.collection<{ _id: number; petId: number }>('orders');
      const stock = db.collection<{ _id: number; quantity: number }>(
        'inventory',
      );
      await stock.insertOne({ _id: 7, quantity: 1 });
      const order = async (id: number) =>
        client.withSession((session) =>
          session.withTransaction(async () => {
            await orders.insertOne({ _id: id, petId: 7 }, { session });
            const taken = await stock.updateOne(
              { _id: 7, quantity: { $gte: 1 } },
              { $inc: { quantity: -1 } },
              { session },
            );
            if (taken.modifiedCount === 0) throw new Error('out of stock');
          }),
        );

      await order(1);
      await expect(order(2)).rejects.toThrow('out of stock');

      expect(await orders.find({}).toArray()).toEqual([{ _id: 1, petId: 7 }]);
      expect(await stock.findOne({ _id: 7 })).toEqual({ _id: 7, quantity: 0 });
    } finally {
      await client.close();
    }
  });

  it('tells a change stream of each change, in order, and resumes after a token', async () => {
    await using server = await startMongod();
    const client = await MongoClient.connect(server.uri);
    try {
      const pets = client
        .db(server.databaseName('pets'))
        .collection<{ _id: number }>('pets');
      const stream = pets.watch();
      // The first try opens the stream, from now on.
      expect(await stream.tryNext()).toBeNull();
      await pets.insertOne({ _id: 0 });
      await pets.insertOne({ _id: 1 });
      await pets.deleteOne({ _id: 0 });
      const [first, second, third] = [
        await stream.next(),
        await stream.next(),
        await stream.next(),
      ];
      await stream.close();

      expect(first).toMatchObject({
        operationType: 'insert',
        documentKey: { _id: 0 },
      });
      expect(second).toMatchObject({
        operationType: 'insert',
        documentKey: { _id: 1 },
      });
      expect(third).toMatchObject({
        operationType: 'delete',
        documentKey: { _id: 0 },
      });
      const resumed = pets.watch([], { resumeAfter: first._id });
      expect(await resumed.next()).toMatchObject({ documentKey: { _id: 1 } });
      await resumed.close();
    } finally {
      await client.close();
    }
  });

  it('keeps the data and the replica set of a given folder across restarts, on another port too', async () => {
    const dataDir = await newFolder();
    const first = await startMongod({ dataDir });
    const writer = await MongoClient.connect(first.uri);
    await writer
      .db('petstore_pets')
      .collection('pets')
      .insertOne({ _id: 1 as never, name: 'Rex' });
    await writer.close();
    await first.stop();

    for (const port of [Number(new URL(first.uri).port), await freePort()]) {
      await using again = await startMongod({ dataDir, port });
      const reader = await MongoClient.connect(again.uri);
      try {
        const pet = await reader
          .db('petstore_pets')
          .collection('pets')
          .findOne({ _id: 1 as never });
        expect(pet).toEqual({ _id: 1, name: 'Rex' });
        const hello = await reader.db('admin').command({ hello: 1 });
        expect(hello).toMatchObject({
          setName: 'petstore',
          isWritablePrimary: true,
        });
        expect(hello.hosts).toEqual([`127.0.0.1:${port}`]);
      } finally {
        await reader.close();
      }
    }
    expect(existsSync(join(dataDir, 'mongod.log'))).toBe(true);
  });

  it('keeps every acknowledged write when it is killed', async () => {
    const dataDir = await newFolder();
    const first = await startMongod({ dataDir });
    const writer = await MongoClient.connect(first.uri);
    const orders = writer
      .db('petstore_store')
      .collection<{ _id: number; open: boolean }>('orders');
    await orders.insertMany(
      Array.from({ length: 200 }, (_, index) => ({
        _id: index + 1,
        open: true,
      })),
    );
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        orders.updateOne(
          { _id: index + 1, open: true },
          { $set: { open: false } },
        ),
      ),
    );
    await orders.deleteOne({ _id: 200 });
    const [pid] = await mongodsNaming(dataDir);
    process.kill(Number(pid), 'SIGKILL');
    await vi.waitUntil(
      async () => (await mongodsNaming(dataDir)).length === 0,
      {
        timeout: 10_000,
        interval: 50,
      },
    );
    await writer.close();
    await first.stop();

    await using second = await startMongod({ dataDir });
    const reader = await MongoClient.connect(second.uri);
    const kept = reader
      .db('petstore_store')
      .collection<{ _id: number; open: boolean }>('orders');
    expect(await kept.countDocuments({})).toBe(199);
    expect(await kept.countDocuments({ open: false })).toBe(50);
    await reader.close();
  });

  it('fails at once, saying why, when mongod exits during start-up', async () => {
    const dataDir = await newFolder();
    // The log is appended to: an error of an earlier run is not this one's reason.
    await writeFile(
      join(dataDir, 'mongod.log'),
      '{"s":"E","msg":"an earlier run failed"}\n',
    );
    await using running = await startMongod({ dataDir });

    // A second mongod on the same folder finds it locked.
    const refused = startMongod({ dataDir });
    // Its exit is the reason given: it did not wait out the start-up timeout.
    await expect(refused).rejects.toThrow(
      /^\[testkit\] mongod exited during start-up \(status \d+\): .*mongod\.lock/s,
    );
    await expect(refused).rejects.not.toThrow('an earlier run failed');
    // The first one, holding the folder, still answers.
    const client = await MongoClient.connect(running.uri);
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({
      ok: 1,
    });
    await client.close();
  });

  it.each([
    ['a folder of its own', true],
    ['a temporary folder', false],
  ])(
    'stops, with %s, when the process that started it is killed',
    async (_, ownFolder) => {
      const dataDir = ownFolder ? await newFolder() : '';
      const holder = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(
            import.meta.dirname,
            'test-support',
            'hold-embedded-database.ts',
          ),
          ...(ownFolder ? [dataDir] : []),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const [uri] = (await once(holder.stdout.setEncoding('utf8'), 'data')) as [
        string,
      ];
      expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\//);
      const port = new URL(uri.trim()).port;
      const dbPath = await dbPathOf(port);
      expect(await mongodsNaming(`--port ${port} `)).not.toHaveLength(0);

      holder.kill('SIGKILL');
      await once(holder, 'exit');

      await vi.waitUntil(
        async () => (await mongodsNaming(`--port ${port} `)).length === 0,
        {
          timeout: 15_000,
          interval: 100,
        },
      );
      // A temporary folder goes with it; a folder of its own keeps the data.
      await vi.waitUntil(() => existsSync(dbPath) === ownFolder, {
        timeout: 5_000,
      });
    },
  );
});
