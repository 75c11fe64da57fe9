import { describe, expect, it } from 'vitest';
import { mayRetry, retryDelay } from './retries.js';

describe('retryDelay', () => {
  it('doubles from 0.5 s up to 8 s, scaled by the jitter', () => {
    expect(
      [0, 1, 2, 3, 4, 5, 6].map((retry) => retryDelay(retry, null, () => 1)),
    ).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(retryDelay(3, null, () => 0.25)).toBe(1000);
    expect(retryDelay(3, null, () => 0)).toBe(0);
  });

  it('waits what Retry-After asks, in seconds or as a date, up to a minute', () => {
    expect(retryDelay(0, '2', () => 1)).toBe(2000);
    expect(retryDelay(0, '0', () => 1)).toBe(0);
    expect(retryDelay(0, '3600', () => 1)).toBe(60_000);
    const inTenSeconds = new Date(Date.now() + 10_500).toUTCString();
    expect(retryDelay(0, inTenSeconds, () => 1)).toBeGreaterThan(9_000);
    expect(retryDelay(0, 'soon', () => 1)).toBe(500);
  });
});

describe('mayRetry', () => {
  it('allows safe and idempotent methods, and a POST only with an Idempotency-Key', () => {
    expect(
      ['GET', 'HEAD', 'PUT', 'DELETE'].every((method) =>
        mayRetry(method, undefined),
      ),
    ).toBe(true);
    expect(mayRetry('POST', undefined)).toBe(false);
    expect(mayRetry('PATCH', undefined)).toBe(false);
    expect(mayRetry('POST', 'key')).toBe(true);
  });
});
