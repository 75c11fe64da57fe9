// Authentication: a request's API key to the account it belongs to, cached briefly.
import type { Caller } from '@petstore/service-kit';
import { AppError } from '@petstore/service-kit';
import type { AccountRepository, KeyOwner } from '../accounts/account-repository.js';
import { hashApiKey, looksLikeApiKey, sameHash } from './api-key-secret.js';
import type { KeyCache } from './key-cache.js';
import type { KeyUsage } from './key-usage.js';

/** What a 401 says about how to authenticate (RFC 6750). */
export const WWW_AUTHENTICATE = 'Bearer realm="petstore"';

function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message, {
    headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
  });
}

/** The token of an `Authorization: Bearer <token>` header (the scheme is case-insensitive). */
function bearerToken(authorization: string): string {
  if (authorization === '')
    throw unauthorized('this operation needs Authorization: Bearer <API key>');
  const [scheme = '', ...rest] = authorization.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'bearer') {
    throw unauthorized('Authorization must use the Bearer scheme');
  }
  const token = rest.join(' ');
  if (token === '') throw unauthorized('the Bearer token is empty');
  return token;
}

/** Who the key is, once the key is active. */
export interface Authenticated {
  caller: Caller;
  keyId: string;
}

/**
 * Turns an `Authorization` header into the account it belongs to, or throws 401 `unauthorized`
 * with `WWW-Authenticate`. Keys are looked up by their SHA-256 (never stored or logged in clear),
 * cached for at most the cache's time to live counted from when the lookup began, so a key revoked
 * through any gateway is refused by every gateway within that time; every use is recorded in
 * memory for `lastUsedAt`.
 */
export class Authenticator {
  readonly #accounts: Pick<AccountRepository, 'findKeyOwner'>;
  readonly #cache: KeyCache;
  readonly #usage: KeyUsage;
  readonly #now: () => Date;
  /** Keys revoked through this gateway so far: a lookup that began before one is not cached. */
  #revocations = 0;

  constructor(
    accounts: Pick<AccountRepository, 'findKeyOwner'>,
    cache: KeyCache,
    usage: KeyUsage,
    now: () => Date,
  ) {
    this.#accounts = accounts;
    this.#cache = cache;
    this.#usage = usage;
    this.#now = now;
  }

  /**
   * `fresh` asks the database whatever the cache holds: for what a key must not do a moment after
   * it was revoked on another gateway (manage keys, send messages).
   */
  async authenticate(authorization: string, { fresh = false } = {}): Promise<Authenticated> {
    const token = bearerToken(authorization);
    if (!looksLikeApiKey(token)) throw unauthorized('the API key is malformed');
    const hash = hashApiKey(token);
    const owner = (fresh ? undefined : this.#cache.get(hash)) ?? (await this.#lookUp(hash));
    this.#usage.record(owner.keyId, this.#now());
    return { caller: { accountId: owner.accountId, role: owner.role }, keyId: owner.keyId };
  }

  /** Forgets a revoked key at once, so its next request is 401. */
  forget(hash: string): void {
    this.#revocations++;
    this.#cache.delete(hash);
  }

  async #lookUp(hash: string): Promise<KeyOwner> {
    const startedAt = this.#cache.now();
    const revocations = this.#revocations;
    const owner = await this.#accounts.findKeyOwner(hash);
    if (!owner || !sameHash(owner.hash, hash)) {
      throw unauthorized('the API key is unknown or revoked');
    }
    // A key revoked while it was being looked up may be the one read as live: not cached.
    if (revocations === this.#revocations) this.#cache.set(hash, owner, startedAt);
    return owner;
  }
}
