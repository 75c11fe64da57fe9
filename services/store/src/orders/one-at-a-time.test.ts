import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time.js';

/** A piece of work that runs until `finish` is called, noting when it starts and ends. */
function step(name: string, log: string[]) {
  let finish = (): void => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const work = async () => {
    log.push(`${name} starts`);
    await finished;
    log.push(`${name} ends`);
    return name;
  };
  return {
    work,
    finish: () => {
      finish();
    },
  };
}

const shared = (error: unknown) =>
  error instanceof Error && error.message === 'unavailable';

describe('oneAtATime', () => {
  it('runs the work of one key one after another, in the order given', async () => {
    const log: string[] = [];
    const queue = oneAtATime<number>(shared);
    const [a, b] = [step('a', log), step('b', log)];
    const results = [queue(1, a.work), queue(1, b.work)];
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    a.finish();
    await expect(results[0]).resolves.toBe('a');
    await expect.poll(() => log).toEqual(['a starts', 'a ends', 'b starts']);
    b.finish();
    await expect(results[1]).resolves.toBe('b');
  });

  it('runs the work of other keys alongside', async () => {
    const log: string[] = [];
    const queue = oneAtATime<number>(shared);
    const [a, b] = [step('a', log), step('b', log)];
    const results = [queue(1, a.work), queue(2, b.work)];
    await expect.poll(() => log).toEqual(['a starts', 'b starts']);
    b.finish();
    a.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b']);
  });

  it('goes on after work that failed alone', async () => {
    const queue = oneAtATime<string>(shared);
    const failed = queue('k', () => Promise.reject(new Error('refused')));
    const next = queue('k', () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('next');
  });

  it('fails the work waiting behind a shared failure alike, without running it', async () => {
    const queue = oneAtATime<string>(shared);
    const ran: string[] = [];
    const first = queue('k', () => Promise.reject(new Error('unavailable')));
    const waiting = [1, 2].map((index) =>
      queue('k', () => {
        ran.push(`waiting ${index}`);
        return Promise.resolve(index);
      }),
    );
    await expect(first).rejects.toThrow('unavailable');
    for (const result of waiting)
      await expect(result).rejects.toThrow('unavailable');
    expect(ran).toEqual([]);
    // Work given afterwards runs.
    await expect(queue('k', () => Promise.resolve('later'))).resolves.toBe(
      'later',
    );
  });
});
