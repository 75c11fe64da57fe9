import type { KeyOwner } from './account-repository.js';

export interface KeyCacheOptions {
  /** How long an owner is trusted without asking the database again; 0 turns the cache off. */
  ttlMs: number;
  /** The most keys kept; the oldest entry goes first. */
  maxEntries: number;
  now?: () => number;
}

/**
 * Key owners by key hash, so that a busy key costs no database read per request. Bounded in time
 * and size; a key revoked through this gateway is evicted at once, one revoked through another
 * gateway instance stays usable here for at most `ttlMs`.
 */
export class KeyCache {
  readonly #entries = new Map<string, { owner: KeyOwner; expiresAt: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor({ ttlMs, maxEntries, now = () => Date.now() }: KeyCacheOptions) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  get(hash: string): KeyOwner | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry.owner;
  }

  set(hash: string, owner: KeyOwner): void {
    if (this.#ttlMs === 0 || this.#maxEntries === 0) return;
    this.#entries.delete(hash);
    this.#entries.set(hash, { owner, expiresAt: this.#now() + this.#ttlMs });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }

  evict(hash: string): void {
    this.#entries.delete(hash);
  }

  get size(): number {
    return this.#entries.size;
  }
}
