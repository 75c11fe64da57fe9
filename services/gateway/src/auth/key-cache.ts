import type { Role } from '@petstore/contract';
import { LRUCache } from 'lru-cache';

/** The account a live key belongs to, as authentication needs it. */
export interface KeyOwner {
  keyId: string;
  /** The stored SHA-256 of the key, hex. */
  hash: string;
  accountId: string;
  role: Role;
}

export interface KeyCacheOptions {
  /** 0 turns the cache off. */
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds, monotonic. */
  now?: () => number;
}

export interface KeyCache {
  get(hash: string): KeyOwner | undefined;
  /** Caches an owner read at `readAt` (`now()`); it expires `ttlMs` after that. */
  set(hash: string, owner: KeyOwner, readAt: number): void;
  delete(hash: string): void;
  now(): number;
}

/** Key owners by key hash, least recently used first out. */
export function createKeyCache({
  ttlMs,
  maxEntries,
  now = () => performance.now(),
}: KeyCacheOptions): KeyCache {
  if (ttlMs === 0 || maxEntries === 0) {
    return { get: () => undefined, set: () => undefined, delete: () => undefined, now };
  }
  // ttlResolution 0: expiry is checked against the clock on every lookup.
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
