import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { spawnGuarded, stopGuarded } from './guarded-process.js';

describe('spawnGuarded', () => {
  it('exits with the command’s status as soon as the command exits by itself', async () => {
    const child = spawnGuarded('sh', ['-c', 'exit 7']);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(7);
  });

  it('reports a command killed by a signal as 128 + the signal’s number', async () => {
    const child = spawnGuarded('sh', ['-c', 'kill -9 $$']);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(128 + 9);
  });

  it('leads a process group of its own, which a Ctrl-C meant for its owner does not reach', async () => {
    const child = spawnGuarded('sleep', ['30']);
    try {
      // Signal 0 to a group only checks that the group exists: the guard's pid names one.
      expect(() => process.kill(-(child.pid ?? 0), 0)).not.toThrow();
    } finally {
      await stopGuarded(child);
    }
  });

  it('ends the command with SIGTERM when stopped', async () => {
    const child = spawnGuarded('sleep', ['30']);
    expect(await stopGuarded(child)).toBe(128 + 15);
  });
});
