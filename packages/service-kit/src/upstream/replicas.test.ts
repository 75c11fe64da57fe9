import { afterEach, describe, expect, it, vi } from 'vitest';
import { Replicas } from './replicas.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('replicas', () => {
  it('are taken in turn, past one avoided and past those already tried', () => {
    const replicas = new Replicas(['a', 'b', 'c']);
    expect([replicas.pick(), replicas.pick(), replicas.pick()]).toEqual([
      'a',
      'b',
      'c',
    ]);
    replicas.avoid('b');
    expect([replicas.pick(), replicas.pick(), replicas.pick()]).toEqual([
      'a',
      'c',
      'c',
    ]);
    expect(replicas.pick(new Set(['a', 'c']))).toBe('b');
  });

  it('when all are avoided, give the one avoided longest ago', () => {
    vi.useFakeTimers();
    const replicas = new Replicas(['a', 'b']);
    replicas.avoid('b');
    vi.advanceTimersByTime(2_000);
    replicas.avoid('a');
    expect([replicas.pick(), replicas.pick()]).toEqual(['b', 'b']);
  });

  it('never avoid the only one', () => {
    const replicas = new Replicas(['a']);
    replicas.avoid('a');
    expect(replicas.pick()).toBe('a');
  });

  it('need at least one', () => {
    expect(() => new Replicas([])).toThrow('no replica');
  });
});
