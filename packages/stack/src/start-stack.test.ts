import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@petstore/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStack } from './start-stack.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'petstore-stack-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const answers = (url: string) =>
  fetch(`${url}/health`).then(
    () => true,
    () => false,
  );

async function noneAnswers(urls: string[]): Promise<void> {
  await vi.waitUntil(
    async () => !(await Promise.all(urls.map(answers))).includes(true),
    {
      timeout: 10_000,
      interval: 100,
    },
  );
}

const quiet = { LOG_LEVEL: 'silent' };

/** What under the folder is open to anyone but its owner: it holds e-mails and message texts. */
async function openToOthers(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  expect(entries).toContain(join('mongodb', 'WiredTiger'));
  const open = [];
  for (const entry of entries) {
    if (((await stat(join(folder, entry))).mode & 0o077) !== 0)
      open.push(entry);
  }
  return open;
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

it('starts the database and every service, ready through the gateway, and stops them all', async () => {
  const stack = await startStack({ dataDir, env: quiet, stdio: 'pipe' });
  try {
    const ready = await fetch(`${stack.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
  } finally {
    await stack.stop();
  }
  await noneAnswers([stack.url, stack.pets.url, stack.store.url]);
});

it('leaves no service running when the process that started them is killed', async () => {
  const holder = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'test-support', 'hold-stack.ts'),
      dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(holder.stdout.setEncoding('utf8'), 'data')) as [
    string,
  ];
  const urls = JSON.parse(line) as string[];
  expect(await Promise.all(urls.map(answers))).toEqual([true, true, true]);

  holder.kill('SIGKILL');
  await once(holder, 'exit');

  await noneAnswers(urls);
});

it('keeps the data, in its mongod under the data folder, when started again', async () => {
  const signUp = (url: string) =>
    fetch(`${url}/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com' }),
    });
  // A folder made by hand, readable by everyone, becomes its owner's alone.
  await chmod(dataDir, 0o755);
  const first = await startStack({ dataDir, env: quiet, stdio: 'pipe' });
  try {
    expect(await modeOf(dataDir)).toBe(0o700);
    expect((await signUp(first.url)).status).toBe(201);
    expect(await openToOthers(dataDir)).toEqual([]);
    expect(await modeOf(join(dataDir, 'admin-api-key'))).toBe(0o600);
  } finally {
    await first.stop();
  }

  // As an earlier version or a hand could leave them: each start makes them its owner's again.
  await chmod(join(dataDir, 'mongodb'), 0o755);
  await chmod(join(dataDir, 'admin-api-key'), 0o644);
  await chmod(join(dataDir, 'internal-token'), 0o644);
  const again = await startStack({ dataDir, env: quiet, stdio: 'pipe' });
  try {
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(join(dataDir, 'mongodb'))).toBe(0o700);
    expect(await openToOthers(dataDir)).toEqual([]);
    expect(await modeOf(join(dataDir, 'admin-api-key'))).toBe(0o600);
    expect(again.database.uri).not.toBe(first.database.uri);
    const answer = await signUp(again.url);
    expect(answer.status).toBe(409);
    expect(existsSync(join(dataDir, 'mongodb', 'mongod.log'))).toBe(true);
  } finally {
    await again.stop();
  }
}, 150_000); // two stacks, one after the other, on a machine busy with every other suite

it('learns at once that a service died, and how', async () => {
  const stack = await startStack({ dataDir, env: quiet, stdio: 'pipe' });
  try {
    await stack.pets.signal('SIGKILL');
    expect(await stack.pets.exited()).toBe(128 + 9);
    expect(stack.pets.running).toBe(false);
  } finally {
    await stack.stop();
  }
});

describe('refusals, before anything is started', () => {
  it('refuses a second stack on the same data folder', async () => {
    const first = await startStack({ dataDir, env: quiet, stdio: 'pipe' });
    try {
      await expect(
        startStack({ dataDir, env: quiet, stdio: 'pipe' }),
      ).rejects.toThrow(
        `[stack] another stack is running on ${dataDir} (DATA_DIR): stop it, or set DATA_DIR to another folder`,
      );
      expect(await answers(first.url)).toBe(true);
    } finally {
      await first.stop();
    }
  });

  it('names a port in use and the variable that moves it', async () => {
    const port = await freePort();
    const taken = createServer().listen(port, '127.0.0.1');
    await once(taken, 'listening');
    try {
      await expect(
        startStack({
          dataDir,
          env: quiet,
          stdio: 'pipe',
          ports: { pets: port },
        }),
      ).rejects.toThrow(
        `[stack] port ${port} is in use (PETS_PORT): stop what listens there or set PETS_PORT to another port`,
      );
    } finally {
      taken.close();
    }
  });
});
