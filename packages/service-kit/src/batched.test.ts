import { describe, expect, it } from 'vitest';
import { batched } from './batched.js';

/** A batcher whose flushes wait until `finish` is called, recording each batch as it starts. */
function recording() {
  const batches: string[][] = [];
  const finishes: (() => void)[] = [];
  let running = 0;
  let overlapped = false;
  const add = batched<string, number, string>({
    flush: async (key, items) => {
      overlapped ||= running > 0;
      running++;
      batches.push(items.map((item) => `${key}${item}`));
      await new Promise<void>((resolve) => finishes.push(resolve));
      running--;
      return items.map((item) => `${key}${item} done`);
    },
  });
  const finishNext = () => finishes.shift()?.();
  return { add, batches, finishNext, overlapped: () => overlapped };
}

describe('batched', () => {
  it('gathers what comes while a batch of the key is written into the next', async () => {
    const { add, batches, finishNext } = recording();
    const first = add('a', 1);
    await expect.poll(() => batches).toEqual([['a1']]);
    const later = [add('a', 2), add('a', 3)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a1']]);
    finishNext();
    await expect(first).resolves.toBe('a1 done');
    await expect.poll(() => batches).toEqual([['a1'], ['a2', 'a3']]);
    finishNext();
    await expect(Promise.all(later)).resolves.toEqual(['a2 done', 'a3 done']);
  });

  it('writes one batch of a key at a time, and batches of other keys alongside', async () => {
    const { add, batches, finishNext, overlapped } = recording();
    const results = [add('a', 1), add('b', 1)];
    await expect.poll(() => batches).toEqual([['a1'], ['b1']]);
    finishNext();
    finishNext();
    await expect(Promise.all(results)).resolves.toEqual(['a1 done', 'b1 done']);
    expect(overlapped()).toBe(true);
  });

  it('rejects the items of a failed flush, and goes on with the next batch', async () => {
    let fail = true;
    const flushed: number[][] = [];
    const add = batched<string, number, number>({
      flush: (_key, items) => {
        if (fail) return Promise.reject(new Error('database down'));
        flushed.push(items);
        return Promise.resolve(items);
      },
    });
    const failed = [add('a', 1), add('a', 2)];
    for (const item of failed)
      await expect(item).rejects.toThrow('database down');
    fail = false;
    await expect(add('a', 3)).resolves.toBe(3);
    expect(flushed).toEqual([[3]]);
  });

  it('fails the next batch of the key alike after a failure it shares, without writing it', async () => {
    const flushed: number[][] = [];
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const add = batched<string, number, number>({
      flush: async (_key, items) => {
        flushed.push(items);
        await released;
        if (items.includes(1)) throw new Error('database down');
        return items;
      },
      failsTheNext: (error) =>
        error instanceof Error && error.message === 'database down',
    });
    const first = add('a', 1);
    await expect.poll(() => flushed).toEqual([[1]]);
    const waiting = [add('a', 2), add('a', 3)];
    release();
    await expect(first).rejects.toThrow('database down');
    for (const item of waiting)
      await expect(item).rejects.toThrow('database down');
    expect(flushed).toEqual([[1]]);
    // Items given once that has settled are written.
    await expect(add('a', 4)).resolves.toBe(4);
    expect(flushed).toEqual([[1], [4]]);
  });
});
