import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'petstore-lock-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Another process holding the folder's lock, once it says so. */
async function holder() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'test-support', 'hold-lock.ts'), dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(child.stdout.setEncoding('utf8'), 'data')) as [string];
  expect(line).toBe('locked\n');
  return child;
}

const refusal = () =>
  `[stack] another stack is running on ${dataDir} (DATA_DIR): stop it, or set DATA_DIR to another folder`;

describe('the data folder lock', () => {
  it('refuses a second holder while the first runs, and is free again once released', async () => {
    const unlock = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(refusal());
    await unlock();
    const again = await lockDataDir(dataDir);
    await again();
  });

  it('refuses while the process that holds it runs', async () => {
    const child = await holder();
    try {
      const lines: string[] = [];
      await expect(lockDataDir(dataDir, (line) => lines.push(line))).rejects.toThrow(refusal());
      expect(lines).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });

  it('takes the lock of a killed holder over at once, saying so', async () => {
    const child = await holder();
    child.kill('SIGKILL');
    await once(child, 'exit');

    const lines: string[] = [];
    const unlock = await lockDataDir(dataDir, (line) => lines.push(line));
    expect(lines).toEqual([
      `[stack] the stack that held ${dataDir} (pid ${child.pid}) is gone: taking its lock over`,
    ]);
    // Held again: a third comer is refused.
    await expect(lockDataDir(dataDir)).rejects.toThrow(refusal());
    await unlock();
  });
});
