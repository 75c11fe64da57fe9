import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { batched } from './batched.js';

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
  it('flushes what comes within the linger in one batch', async () => {
    const { batch, batches } = recording(30);
    const added = [1, 2, 3].map((item) => batch.add(item));
    expect(batches).toEqual([]);
    await Promise.all(added);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('flushes a lone item once the linger is over', async () => {
    const { batch, batches } = recording(20);
    const started = Date.now();
    await batch.add(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(19);
    expect(batches).toEqual([[1]]);
  });

  it('runs one flush at a time, gathering what comes meanwhile into the next', async () => {
    const { batch, batches, overlapped } = recording(5, 40);
    const first = batch.add(1);
    await sleep(15);
    const later = [2, 3].map((item) => batch.add(item));
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
    for (const item of failed) await expect(item).rejects.toThrow('database down');
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
