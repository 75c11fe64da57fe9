import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EmbeddedDatabase } from './mongo-server.js';
import { startEmbedded } from './start-mongo.js';

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
const PROGRAM: Record<EmbeddedDatabase, string> = {
  ferretdb: 'ferretdb',
  'mongo-java-server': 'petstore-testdb.jar',
};

describe.each(['ferretdb', 'mongo-java-server'] as const)('the embedded %s', (kind) => {
  const program = PROGRAM[kind];

  it('leaves no process behind and nothing answering after stop', async () => {
    const server = await startEmbedded(kind);
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
    const first = await startEmbedded(kind, { dataDir });
    const writer = await MongoClient.connect(first.uri);
    await writer
      .db('petstore_pets')
      .collection('pets')
      .insertOne({ _id: 1 as never, name: 'Rex' });
    await writer.close();
    await first.stop();

    await using second = await startEmbedded(kind, { dataDir });
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
        kind,
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
});

describe('the embedded mongo-java-server', () => {
  it('applies concurrent conditional updates on one document atomically, across connections', async () => {
    await using server = await startEmbedded('mongo-java-server');
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
});
