import { AppError, type Caller, type Logger } from '@petstore/service-kit';
import { LRUCache } from 'lru-cache';
import type { ApiKeyDocument } from '../database/collections.js';
import { API_KEY_PATTERN, hashApiKey } from './api-key-secret.js';

/** The account a live key belongs to, as authentication needs it. */
export type KeyOwner = Pick<ApiKeyDocument, 'hash' | 'accountId' | 'role'> & {
  keyId: string;
};

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

type KeyCache = ReturnType<typeof createKeyCache>;

/** The latest use of each key, kept in memory and written (`lastUsedAt`) in batches. */
export class KeyUsage {
  #pending = new Map<string, Date>();
  #flushing: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (uses: ReadonlyMap<string, Date>) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  record(keyId: string, usedAt: Date): void {
    const known = this.#pending.get(keyId);
    if (!known || known < usedAt) this.#pending.set(keyId, usedAt);
  }

  /** Writes every use recorded so far; a failed batch is kept for the next flush. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#flushPending());
    return this.#flushing;
  }

  start(intervalMs: number): void {
    this.#timer ??= setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  async #flushPending(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await this.write(batch);
    } catch (error) {
      for (const [keyId, usedAt] of batch) this.record(keyId, usedAt);
      this.logger.warn(
        { err: error, keys: batch.size },
        'could not record key uses; will retry',
      );
    }
  }
}

/** With how to authenticate (RFC 6750). */
function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message, {
    headers: { 'WWW-Authenticate': 'Bearer realm="petstore"' },
  });
}

function bearerToken(authorization: string): string {
  if (authorization === '') {
    throw unauthorized('this operation needs Authorization: Bearer <API key>');
  }
  const [scheme = '', ...rest] = authorization.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'bearer') {
    throw unauthorized('Authorization must use the Bearer scheme');
  }
  const token = rest.join(' ');
  if (token === '') throw unauthorized('the Bearer token is empty');
  return token;
}

/**
 * An `Authorization` header to its account, or 401. Owners are cached for at most the cache's
 * time to live counted from when the lookup began, so a key revoked through any gateway is refused
 * by every gateway within it; each use is recorded for `lastUsedAt`.
 */
export class Authenticator {
  /** Keys revoked through this gateway: a lookup that began before one is not cached. */
  #revocations = 0;

  constructor(
    private readonly keys: {
      findKeyOwner(hash: string): Promise<KeyOwner | undefined>;
    },
    private readonly cache: KeyCache,
    private readonly usage: KeyUsage,
  ) {}

  /** `fresh` skips the cache: for what a key revoked on another gateway must not do at once. */
  async authenticate(
    authorization: string,
    { fresh = false } = {},
  ): Promise<Caller> {
    const token = bearerToken(authorization);
    if (!API_KEY_PATTERN.test(token))
      throw unauthorized('the API key is malformed');
    const hash = hashApiKey(token);
    const owner =
      (fresh ? undefined : this.cache.get(hash)) ?? (await this.#lookUp(hash));
    this.usage.record(owner.keyId, new Date());
    return { accountId: owner.accountId, role: owner.role };
  }

  /** Forgets a revoked key at once, so its next request is 401. */
  forget(hash: string): void {
    this.#revocations++;
    this.cache.delete(hash);
  }

  async #lookUp(hash: string): Promise<KeyOwner> {
    const startedAt = this.cache.now();
    const revocations = this.#revocations;
    const owner = await this.keys.findKeyOwner(hash);
    if (!owner) {
      throw unauthorized('the API key is unknown or revoked');
    }
    if (revocations === this.#revocations)
      this.cache.set(hash, owner, startedAt);
    return owner;
  }
}
