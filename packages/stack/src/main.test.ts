import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { freePort } from '@petstore/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
/** `pnpm start` builds what it needs first: nothing, when the test command has just built it. */
const START_TIMEOUT_MS = 240_000;

interface Started {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | string | null>;
  /** The gateway's, pets' and store's addresses. */
  urls: string[];
}

let dataDir: string;
let started: Started | undefined;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'petstore-pnpm-start-'));
});
afterEach(async () => {
  // A failed test leaves nothing running: the services end with the stack (see spawnGuarded).
  if (started?.child.exitCode === null) process.kill(-(started.child.pid ?? 0), 'SIGKILL');
  await started?.exited;
  started = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** `pnpm start` as a terminal runs it: a process group of its own, the terminal's foreground. */
async function pnpmStart(): Promise<Started> {
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const [gateway, pets, store] = ports.map(String);
  const child = spawn('pnpm', ['start'], {
    cwd: REPOSITORY,
    env: {
      ...process.env,
      PORT: gateway,
      PETS_PORT: pets,
      STORE_PORT: store,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  started = {
    child,
    output: () => output,
    exited,
    urls: ports.map((port) => `http://127.0.0.1:${port}`),
  };
  await vi.waitUntil(() => output.includes('Ctrl-C stops everything.') || child.exitCode !== null, {
    timeout: START_TIMEOUT_MS,
    interval: 200,
  });
  expect(child.exitCode, output).toBeNull();
  return started;
}

const answers = (url: string) =>
  fetch(`${url}/health`).then(
    () => true,
    () => false,
  );

async function noneAnswers(urls: string[]): Promise<void> {
  expect(await Promise.all(urls.map(answers))).toEqual(urls.map(() => false));
}

describe('pnpm start', () => {
  it(
    'prints the address of the API, which answers; on Ctrl-C stops everything and exits 0',
    async () => {
      const { child, output, exited, urls } = await pnpmStart();
      const [gateway] = urls;
      expect(output()).toContain(`Petstore API  ${gateway}/v2`);
      const index = await fetch(`${gateway}/v2`);
      expect(index.status).toBe(200);
      expect(await index.json()).toMatchObject({ docs: `${gateway}/docs` });

      // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
      process.kill(-(child.pid ?? 0), 'SIGINT');
      expect(await exited, output()).toBe(0);
      expect(output()).not.toContain('ELIFECYCLE');
      expect(output()).not.toContain('stopping everything');
      await noneAnswers(urls);
    },
    START_TIMEOUT_MS + 30_000,
  );

  it(
    'stops everything and exits 0 on SIGTERM',
    async () => {
      const { child, output, exited, urls } = await pnpmStart();
      child.kill('SIGTERM');
      expect(await exited, output()).toBe(0);
      expect(output()).not.toContain('ELIFECYCLE');
      await noneAnswers(urls);
    },
    START_TIMEOUT_MS + 30_000,
  );
});
