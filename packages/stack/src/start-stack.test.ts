import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startEmbedded } from '@petstore/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceProcess } from './service-process.js';
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
  await vi.waitUntil(async () => !(await Promise.all(urls.map(answers))).includes(true), {
    timeout: 10_000,
    interval: 100,
  });
}

const quiet = { LOG_LEVEL: 'silent', EMBEDDED_DATABASE: process.env.EMBEDDED_DATABASE };

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
    ['--import', 'tsx', join(import.meta.dirname, 'test-support', 'hold-stack.ts'), dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(holder.stdout.setEncoding('utf8'), 'data')) as [string];
  const urls = JSON.parse(line) as string[];
  expect(await Promise.all(urls.map(answers))).toEqual([true, true, true]);

  holder.kill('SIGKILL');
  await once(holder, 'exit');

  await noneAnswers(urls);
});

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
      await expect(startStack({ dataDir, env: quiet, stdio: 'pipe' })).rejects.toThrow(
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
        startStack({ dataDir, env: quiet, stdio: 'pipe', ports: { pets: port } }),
      ).rejects.toThrow(
        `[stack] port ${port} is in use (PETS_PORT): stop what listens there or set PETS_PORT to another port`,
      );
    } finally {
      taken.close();
    }
  });

  it('refuses replicas on the embedded FerretDB', async () => {
    await expect(
      startStack({
        dataDir,
        env: { ...quiet, EMBEDDED_DATABASE: 'ferretdb' },
        stdio: 'pipe',
        replicas: { pets: 2 },
      }),
    ).rejects.toThrow(
      '[stack] PETS_REPLICAS=2 needs a database several processes can share: set MONGODB_URI, or EMBEDDED_DATABASE=mongo-java-server; the embedded FerretDB serves one process per service',
    );
  });
});

it('refuses a second process of a service on the same FerretDB database, saying why', async () => {
  await using ferretdb = await startEmbedded('ferretdb');
  const output: string[] = [];
  const pets = async () => {
    const port = await freePort();
    return new ServiceProcess({
      name: 'pets',
      entry: fileURLToPath(new URL('../../../services/pets/dist/main.js', import.meta.url)),
      env: {
        PORT: String(port),
        MONGODB_URI: ferretdb.uri,
        INTERNAL_TOKEN: 'internal-token-for-tests-0123456789abcdef',
        LOG_LEVEL: 'silent',
      },
      url: `http://127.0.0.1:${port}`,
      stdio: 'pipe',
      onOutput: (_name, chunk) => output.push(chunk),
    });
  };
  const first = await pets();
  await first.start();
  try {
    const second = await pets();
    await expect(second.start()).rejects.toThrow('[stack] pets exited during start-up');
    expect(output.join('')).toContain('[pets] another process of pets (pid ');
    expect(output.join('')).toContain(
      'uses database petstore_pets; the embedded FerretDB serves one process per service, so replicas need MongoDB (MONGODB_URI)',
    );
    expect(await answers(first.url)).toBe(true);
  } finally {
    await first.stop();
  }
});
