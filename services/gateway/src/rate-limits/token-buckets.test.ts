import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-buckets.js';

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TokenBuckets', () => {
  it('allows a burst, then refuses with the seconds until one more request is allowed', () => {
    const time = clock();
    const buckets = new TokenBuckets({ perSecond: 1, burst: 3, now: time.now });
    expect([1, 2, 3].map(() => buckets.take('a').remaining)).toEqual([2, 1, 0]);
    const refused = buckets.take('a');
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 1 });
    expect(refused.resetSeconds).toBe(3);
  });

  it('refills at the configured rate, never above the burst', () => {
    const time = clock();
    const buckets = new TokenBuckets({ perSecond: 10, burst: 2, now: time.now });
    buckets.take('a');
    buckets.take('a');
    expect(buckets.take('a').allowed).toBe(false);
    time.advance(100);
    expect(buckets.take('a').allowed).toBe(true);
    time.advance(60_000);
    expect(buckets.take('a')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps one bucket per key', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 1, now: clock().now });
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
    expect(buckets.take('b').allowed).toBe(true);
  });

  it('gives a Retry-After of at least one second and rounds up slow rates', () => {
    const buckets = new TokenBuckets({ perSecond: 20 / 60, burst: 1, now: clock().now });
    buckets.take('a');
    expect(buckets.take('a').retryAfterSeconds).toBe(3);
    const fast = new TokenBuckets({ perSecond: 1000, burst: 1, now: clock().now });
    fast.take('a');
    expect(fast.take('a').retryAfterSeconds).toBe(1);
  });

  it('stays within its size, dropping full buckets first', () => {
    const time = clock();
    const buckets = new TokenBuckets({ perSecond: 1, burst: 5, maxBuckets: 3, now: time.now });
    buckets.take('busy');
    buckets.take('busy');
    time.advance(100);
    buckets.take('b');
    buckets.take('c');
    time.advance(10_000); // b and c are full again; busy too by now
    buckets.take('d');
    expect(buckets.size).toBeLessThanOrEqual(3);
    for (let i = 0; i < 100; i++) buckets.take(`k${i}`);
    expect(buckets.size).toBeLessThanOrEqual(3);
  });
});
