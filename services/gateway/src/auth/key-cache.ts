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

export interface KeyCache {
  get(hash: string): KeyOwner | undefined;
  /** Caches an owner read from the database at `readAt` (`now()`); it expires `ttlMs` after that. */
  set(hash: string, owner: KeyOwner, readAt: number): void;
  delete(hash: string): void;
  now(): number;
}

/**
 * Key owners by key hash, so that a busy key costs no database read per request. Bounded in time
 * and size; a key revoked through this gateway is deleted at once.
 */
export function createKeyCache({
  ttlMs,
  maxEntries,
  now = () => performance.now(),
}: KeyCacheOptions): KeyCache {
  if (ttlMs === 0 || maxEntries === 0) {
    return { get: () => undefined, set: () => undefined, delete: () => undefined, now };
  }
  // Expiry is checked against the clock on every lookup (no 1 ms debounce of the clock).
  const cache = new LRUCache<string, KeyOwner>({
    max: maxEntries,
    ttl: ttlMs,
    ttlResolution: 0,
    perf: { now },
  });
  return {
    get: (hash) => cache.get(hash),
    set: (hash, owner, readAt) => void cache.set(hash, owner, { start: readAt }),
    delete: (hash) => void cache.delete(hash),
    now,
  };
}
