import { describe, expect, it } from 'vitest';
import { createKeyCache, type KeyOwner } from './authentication.js';

const owner = (keyId: string): KeyOwner => ({
  keyId,
  hash: keyId,
  accountId: 'acct_a',
  role: 'customer',
});

describe('the key cache', () => {
  it('forgets an owner after its time to live', () => {
    let now = 1;
    const cache = createKeyCache({
      ttlMs: 1000,
      maxEntries: 10,
      now: () => now,
    });
    cache.set('h', owner('k'), cache.now());
    now = 1000;
    expect(cache.get('h')).toEqual(owner('k'));
    now = 1002;
    expect(cache.get('h')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = createKeyCache({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', owner('a'), cache.now());
    cache.set('b', owner('b'), cache.now());
    // A hit makes `a` the most recently used: `b` goes when `c` comes.
    expect(cache.get('a')).toEqual(owner('a'));
    cache.set('c', owner('c'), cache.now());
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(owner('a'));
    expect(cache.get('c')).toEqual(owner('c'));
  });

  it('counts an owner’s time to live from when it was read, not from when it was cached', () => {
    let now = 1_000;
    const cache = createKeyCache({
      ttlMs: 1000,
      maxEntries: 10,
      now: () => now,
    });
    const readAt = now;
    now = 1_800; // the lookup took 800 ms
    cache.set('h', owner('k'), readAt);
    now = 1_900;
    expect(cache.get('h')).toEqual(owner('k'));
    now = 2_100;
    expect(cache.get('h')).toBeUndefined();
  });

  it('deletes a key at once', () => {
    const cache = createKeyCache({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', owner('a'), cache.now());
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('caches nothing with a time to live of 0', () => {
    const cache = createKeyCache({ ttlMs: 0, maxEntries: 2 });
    cache.set('a', owner('a'), cache.now());
    expect(cache.get('a')).toBeUndefined();
  });
});
