import { Pool } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Upstream } from './upstreams.js';

const pools = [
  new Pool('http://127.0.0.1:1'),
  new Pool('http://127.0.0.1:2'),
] as const;

afterEach(() => {
  vi.useRealTimers();
});

describe('an upstream with two replicas', () => {
  it('sends to each in turn, and past one it avoids', () => {
    const upstream = new Upstream('store', [...pools]);
    expect([upstream.pick(), upstream.pick()]).toEqual([pools[0], pools[1]]);
    upstream.avoid(pools[0]);
    expect([upstream.pick(), upstream.pick()]).toEqual([pools[1], pools[1]]);
  });

  it('when both are avoided, sends to the one avoided longest ago: back from its restart', () => {
    vi.useFakeTimers();
    const upstream = new Upstream('store', [...pools]);
    upstream.avoid(pools[0]);
    vi.advanceTimersByTime(2_000);
    upstream.avoid(pools[1]);
    expect([upstream.pick(), upstream.pick(), upstream.pick()]).toEqual([
      pools[0],
      pools[0],
      pools[0],
    ]);
  });
});
