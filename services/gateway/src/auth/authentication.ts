import { AppError, type Caller } from '@petstore/service-kit';
import { hashApiKey, looksLikeApiKey, sameHash } from './api-key-secret.js';
import type { KeyCache, KeyOwner } from './key-cache.js';
import type { KeyUsage } from './key-usage.js';

export interface KeyOwners {
  /** The owner of the live key with this hash, if there is one. */
  findKeyOwner(hash: string): Promise<KeyOwner | undefined>;
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
    private readonly keys: KeyOwners,
    private readonly cache: KeyCache,
    private readonly usage: KeyUsage,
  ) {}

  /** `fresh` skips the cache: for what a key revoked on another gateway must not do at once. */
  async authenticate(
    authorization: string,
    { fresh = false } = {},
  ): Promise<{ caller: Caller; keyId: string }> {
    const token = bearerToken(authorization);
    if (!looksLikeApiKey(token)) throw unauthorized('the API key is malformed');
    const hash = hashApiKey(token);
    const owner =
      (fresh ? undefined : this.cache.get(hash)) ?? (await this.#lookUp(hash));
    this.usage.record(owner.keyId, new Date());
    return {
      caller: { accountId: owner.accountId, role: owner.role },
      keyId: owner.keyId,
    };
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
    if (!owner || !sameHash(owner.hash, hash)) {
      throw unauthorized('the API key is unknown or revoked');
    }
    if (revocations === this.#revocations)
      this.cache.set(hash, owner, startedAt);
    return owner;
  }
}
