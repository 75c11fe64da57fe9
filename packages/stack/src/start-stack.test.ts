import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
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

async function waitUntilNoneAnswers(urls: string[]): Promise<boolean[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const up = await Promise.all(urls.map(answers));
    if (!up.includes(true)) return up;
    await sleep(100);
  }
  return Promise.all(urls.map(answers));
}

it('starts the database and every service, ready through the gateway, and stops them all', async () => {
  const stack = await startStack({ dataDir, env: { LOG_LEVEL: 'silent' }, stdio: 'pipe' });
  try {
    const ready = await fetch(`${stack.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
  } finally {
    await stack.stop();
  }
  expect(await waitUntilNoneAnswers([stack.url, stack.pets.url, stack.store.url])).toEqual([
    false,
    false,
    false,
  ]);
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

  expect(await waitUntilNoneAnswers(urls)).toEqual([false, false, false]);
});
