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

/** Key owners by key hash, least recently used first out; `ttlMs` 0 turns it off. */
export function createKeyCache({
  ttlMs,
  maxEntries,
  now = () => performance.now(),
}: {
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds, monotonic. */
  now?: () => number;
}) {
  // ttlResolution 0: expiry is checked against the clock on every lookup.
  const cache =
    ttlMs > 0 && maxEntries > 0
      ? new LRUCache<string, KeyOwner>({
          max: maxEntries,
          ttl: ttlMs,
          ttlResolution: 0,
          perf: { now },
        })
      : undefined;
  return {
    get: (hash: string) => cache?.get(hash),
    /** Caches an owner read at `readAt` (`now()`); it expires `ttlMs` after that. */
    set: (hash: string, owner: KeyOwner, readAt: number) =>
      void cache?.set(hash, owner, { start: readAt }),
    delete: (hash: string) => void cache?.delete(hash),
    now,
  };
}

export type KeyCache = ReturnType<typeof createKeyCache>;
