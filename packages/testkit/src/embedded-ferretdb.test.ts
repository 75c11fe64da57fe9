import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedFerretdb } from './embedded-ferretdb.js';

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

async function waitUntilGone(text: string): Promise<string[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const left = await processesNaming(text);
    if (left.length === 0) return left;
    await sleep(100);
  }
  return processesNaming(text);
}

afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('startEmbeddedFerretdb', () => {
  it('leaves no ferretdb process behind and nothing answering after stop', async () => {
    const server = await startEmbeddedFerretdb();
    const port = new URL(server.uri).port;
    expect(await processesNaming(`ferretdb.*127.0.0.1:${port}`)).not.toHaveLength(0);

    await server.stop();

    expect(await processesNaming(`ferretdb.*127.0.0.1:${port}`)).toEqual([]);
    const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 300 });
    await expect(client.db('admin').command({ ping: 1 })).rejects.toThrow();
    await client.close();
  });

  it('keeps the data of a given folder across restarts', async () => {
    const dataDir = await newFolder();
    const first = await startEmbeddedFerretdb({ dataDir });
    const writer = await MongoClient.connect(first.uri);
    await writer
      .db('petstore_pets')
      .collection('pets')
      .insertOne({ _id: 1 as never, name: 'Rex' });
    await writer.close();
    await first.stop();

    await using second = await startEmbeddedFerretdb({ dataDir });
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
        join(import.meta.dirname, 'test-support', 'hold-embedded-ferretdb.ts'),
        dataDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [uri] = (await once(holder.stdout.setEncoding('utf8'), 'data')) as [string];
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\//);
    expect(await processesNaming(`ferretdb.*${dataDir}`)).not.toHaveLength(0);

    holder.kill('SIGKILL');
    await once(holder, 'exit');

    expect(await waitUntilGone(`ferretdb.*${dataDir}`)).toEqual([]);
  });
});
