import { describe, expect, it } from 'vitest';
import type { KeyOwner } from './account-repository.js';
import { KeyCache } from './key-cache.js';

const owner = (keyId: string): KeyOwner => ({
  keyId,
  hash: keyId,
  accountId: 'acct_a',
  role: 'customer',
});

describe('KeyCache', () => {
  it('forgets an owner after its time to live', () => {
    let now = 0;
    const cache = new KeyCache({ ttlMs: 1000, maxEntries: 10, now: () => now });
    cache.set('h', owner('k'));
    now = 999;
    expect(cache.get('h')).toEqual(owner('k'));
    now = 1000;
    expect(cache.get('h')).toBeUndefined();
  });

  it('keeps at most maxEntries, the oldest going first', () => {
    const cache = new KeyCache({ ttlMs: 1000, maxEntries: 2, now: () => 0 });
    cache.set('a', owner('a'));
    cache.set('b', owner('b'));
    cache.set('c', owner('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toEqual(owner('c'));
  });

  it('evicts a key at once', () => {
    const cache = new KeyCache({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', owner('a'));
    cache.evict('a');
    expect(cache.get('a')).toBeUndefined();
  });

  it('caches nothing with a time to live of 0', () => {
    const cache = new KeyCache({ ttlMs: 0, maxEntries: 2 });
    cache.set('a', owner('a'));
    expect(cache.get('a')).toBeUndefined();
  });
});
