import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batched } from './batched.js';

// The linger is a `node:timers/promises` sleep, which fake timers leave alone: route it through
// the global setTimeout they replace.
vi.mock('node:timers/promises', () => ({
  setTimeout: (ms: number) =>
    new Promise((resolve) => globalThis.setTimeout(resolve, ms)),
}));

/** A batcher that records its batches, each flush taking `flushMs`. */
function recording(lingerMs: number, flushMs = 0, most?: number) {
  const batches: number[][] = [];
  let running = 0;
  let overlapped = false;
  const batch = batched<number>({
    lingerMs,
    most,
    flush: async (items) => {
      overlapped ||= running > 0;
      running++;
      await sleep(flushMs);
      batches.push(items);
      running--;
    },
  });
  return { batch, batches, overlapped: () => overlapped };
}

describe('batched', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('flushes what comes within the linger in one batch', async () => {
    const { batch, batches } = recording(30);
    const added = [1, 2, 3].map((item) => batch.add(item));
    expect(batches).toEqual([]);
    await Promise.all(added);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('flushes a lone item once the linger is over, not before', async () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const batch = batched<number>({
      lingerMs: 60_000,
      flush: (items) => {
        batches.push(items);
        return Promise.resolve();
      },
    });
    const added = batch.add(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1]]);
    await added;
  });

  it('runs one flush at a time, gathering what comes meanwhile into the next', async () => {
    vi.useFakeTimers();
    const { batch, batches, overlapped } = recording(5, 40);
    const first = batch.add(1);
    // The first batch is flushing (from 5 ms to 45 ms) when the next items come.
    await vi.advanceTimersByTimeAsync(15);
    expect(batches).toEqual([]);
    const later = [2, 3].map((item) => batch.add(item));
    await vi.runAllTimersAsync();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(overlapped()).toBe(false);
  });

  it('rejects the items of a failed flush, and goes on with the next batch', async () => {
    let fail = true;
    const flushed: number[][] = [];
    const batch = batched<number>({
      lingerMs: 5,
      flush: (items) => {
        if (fail) return Promise.reject(new Error('database down'));
        flushed.push(items);
        return Promise.resolve();
      },
    });
    const failed = [batch.add(1), batch.add(2)];
    for (const item of failed)
      await expect(item).rejects.toThrow('database down');
    fail = false;
    await batch.add(3);
    expect(flushed).toEqual([[3]]);
  });

  it('refuses items past `most` waiting, and takes them again once flushed', async () => {
    const { batch, batches } = recording(10, 0, 2);
    const kept = [batch.add(1), batch.add(2)];
    await expect(batch.add(3)).rejects.toThrow('2 items wait already');
    await Promise.all(kept);
    await batch.add(4);
    expect(batches).toEqual([[1, 2], [4]]);
  });

  it('tells when everything added so far was flushed', async () => {
    const { batch, batches } = recording(10, 10);
    void batch.add(1);
    void batch.add(2);
    await batch.flushed();
    expect(batches).toEqual([[1, 2]]);
  });
});
