import { LRUCache } from 'lru-cache';
import type { KeyOwner } from '../accounts/account-repository.js';

export interface KeyCacheOptions {
  /** How long an owner is trusted without asking the database again; 0 turns the cache off. */
  ttlMs: number;
  /** The most keys kept; the least recently used goes first. */
  maxEntries: number;
  /** Milliseconds, monotonic; `performance.now()` by default. */
  now?: () => number;
}

export type KeyCache = Pick<LRUCache<string, KeyOwner>, 'get' | 'set' | 'delete'>;

const NO_CACHE: KeyCache = {
  get: () => undefined,
  set() {
    return this as LRUCache<string, KeyOwner>;
  },
  delete: () => false,
};

/**
 * Key owners by key hash, so that a busy key costs no database read per request. Bounded in time
 * and size; a key revoked through this gateway is deleted at once.
 */
export function createKeyCache({
  ttlMs,
  maxEntries,
  now = () => performance.now(),
}: KeyCacheOptions): KeyCache {
  if (ttlMs === 0 || maxEntries === 0) return NO_CACHE;
  // Expiry is checked against the clock on every lookup (no 1 ms debounce of the clock).
  return new LRUCache<string, KeyOwner>({
    max: maxEntries,
    ttl: ttlMs,
    ttlResolution: 0,
    perf: { now },
  });
}
