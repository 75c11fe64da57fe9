import { describe, expect, it, vi } from 'vitest';
import { captureLogs } from './test-support/captured-logs.js';
import { Worker } from './worker.js';

const HOUR = 3_600_000;

describe('Worker', () => {
  it('steps at once while there is work, then sleeps until kicked', async () => {
    const logs = captureLogs();
    let queued = 3;
    const step = vi.fn(() => Promise.resolve(queued > 0 && queued-- > 0));
    const worker = new Worker({
      name: 'test',
      logger: logs.logger,
      step,
      idleMs: HOUR,
    });
    worker.start();
    await vi.waitUntil(() => step.mock.calls.length === 4);
    expect(queued).toBe(0);

    queued = 1;
    worker.kick();
    await vi.waitUntil(() => step.mock.calls.length === 6);
    await worker.stop();
    expect(queued).toBe(0);
  });

  it('logs a failed step and tries again after its sleep', async () => {
    const logs = captureLogs();
    let calls = 0;
    const step = () =>
      ++calls === 1
        ? Promise.reject(new Error('database down'))
        : Promise.resolve(false);
    const worker = new Worker({
      name: 'test',
      logger: logs.logger,
      step,
      idleMs: 20,
    });
    worker.start();
    await vi.waitUntil(() => calls >= 2);
    await worker.stop();
    expect(logs.text()).toContain('test: a step failed; will retry');
    expect(logs.text()).toContain('database down');
  });

  it('sleeps only until the next piece of work is due', async () => {
    const logs = captureLogs();
    const step = vi.fn(() => Promise.resolve(false));
    const worker = new Worker({
      name: 'test',
      logger: logs.logger,
      step,
      idleMs: HOUR,
      nextDueInMs: () => Promise.resolve(10),
    });
    worker.start();
    await vi.waitUntil(() => step.mock.calls.length >= 3);
    await worker.stop();
  });

  it('stops after the step in progress', async () => {
    const logs = captureLogs();
    let finish!: () => void;
    let finished = false;
    const step = () =>
      new Promise<boolean>((resolve) => {
        finish = () => {
          finished = true;
          resolve(false);
        };
      });
    const worker = new Worker({
      name: 'test',
      logger: logs.logger,
      step,
      idleMs: HOUR,
    });
    worker.start();
    const stopped = worker.stop();
    finish();
    await stopped;
    expect(finished).toBe(true);
  });
});
