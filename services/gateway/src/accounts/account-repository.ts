import type { Account, ApiKey, CreatedAccount, CreatedApiKey, Role } from '@petstore/contract';
import type { Caller } from '@petstore/service-kit';
import { AppError } from '@petstore/service-kit';
import { MongoServerError, type Db } from 'mongodb';
import { hashApiKey, keyPrefix, newApiKey } from '../auth/api-key-secret.js';
import {
  gatewayCollections,
  type AccountDocument,
  type ApiKeyDocument,
  type GatewayCollections,
} from '../database/collections.js';
import { newAccountId, newKeyId } from '../database/random-ids.js';

export const ADMIN_ACCOUNT_ID = 'acct_admin';
export const ADMIN_KEY_ID = 'key_admin';
const ADMIN_EMAIL = 'admin@petstore.invalid';

/** The account an active key belongs to, as authentication needs it. */
export interface KeyOwner {
  keyId: string;
  /** The stored SHA-256 of the key, hex. */
  hash: string;
  accountId: string;
  role: Role;
}

function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

/** Accounts and their API keys, in the gateway's database. */
export class AccountRepository {
  readonly #collections: GatewayCollections;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#collections = gatewayCollections(db);
    this.#now = now;
  }

  /**
   * Creates a customer and its first key. The key record goes in first, marked as pending, so that
   * a sign-up failing halfway never leaves an account without a key: what it can leave is a
   * pending key, which authenticates nobody. A duplicate email (unique index) is 409 `conflict`;
   * the key record made for it is then removed.
   */
  async createCustomer(email: string, name: string | null): Promise<CreatedAccount> {
    const now = this.#now();
    const account: AccountDocument = {
      _id: newAccountId(),
      email,
      name,
      role: 'customer',
      createdAt: now,
    };
    const { apiKey, document: key } = this.#newKey(account._id, 'customer', now);
    await this.#collections.apiKeys.insertOne({ ...key, pendingSignUp: true });
    try {
      await this.#collections.accounts.insertOne(account);
    } catch (error) {
      await this.#collections.apiKeys.deleteOne({ _id: key._id }).catch(() => undefined);
      if (isDuplicateKey(error)) {
        throw new AppError('conflict', 'an account with this email already exists', {
          cause: error,
        });
      }
      throw error;
    }
    await this.#collections.apiKeys.updateOne({ _id: key._id }, { $unset: { pendingSignUp: '' } });
    return { ...toAccount(account), apiKey };
  }

  async getAccount(accountId: string): Promise<Account | undefined> {
    const account = await this.#collections.accounts.findOne({ _id: accountId });
    return account ? toAccount(account) : undefined;
  }

  /** A new key of the caller's account, with the account's role. */
  async createKey({ accountId, role }: Caller): Promise<CreatedApiKey> {
    const { apiKey, document } = this.#newKey(accountId, role, this.#now());
    await this.#collections.apiKeys.insertOne(document);
    return {
      id: document._id,
      apiKey,
      prefix: document.prefix,
      createdAt: iso(document.createdAt),
    };
  }

  /** The account's live keys, oldest first. */
  async listKeys(accountId: string): Promise<ApiKey[]> {
    const keys = await this.#collections.apiKeys
      .find({ accountId, revokedAt: null })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    return keys.map(toApiKey);
  }

  /**
   * Revokes one of the account's live keys; returns the revoked key's hash (to evict it from
   * caches), or undefined when the account has no such live key.
   */
  async revokeKey(accountId: string, keyId: string): Promise<string | undefined> {
    const revoked = await this.#collections.apiKeys.findOneAndUpdate(
      { _id: keyId, accountId, revokedAt: null },
      { $set: { revokedAt: this.#now() } },
      { returnDocument: 'after' },
    );
    return revoked?.hash;
  }

  /** The owner of the live key with this hash, if there is one (one read). */
  async findKeyOwner(hash: string): Promise<KeyOwner | undefined> {
    const key = await this.#collections.apiKeys.findOne({
      hash,
      revokedAt: null,
      pendingSignUp: { $exists: false },
    });
    return key
      ? { keyId: key._id, hash: key.hash, accountId: key.accountId, role: key.role }
      : undefined;
  }

  /** Moves `lastUsedAt` forward for each key, in one batch; never backwards. */
  async recordKeyUses(uses: ReadonlyMap<string, Date>): Promise<void> {
    if (uses.size === 0) return;
    await this.#collections.apiKeys.bulkWrite(
      [...uses].map(([keyId, usedAt]) => ({
        updateOne: {
          filter: { _id: keyId, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: usedAt } }] },
          update: { $set: { lastUsedAt: usedAt } },
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Makes sure `acct_admin` exists (role `admin`, an email no customer can take) and bootstraps its
   * key `key_admin` from `ADMIN_API_KEY`. A new value replaces the old key; the same value never
   * brings back a key revoked through the API (the answer is then 'revoked', for a warning).
   * Without `ADMIN_API_KEY` the admin key is revoked. Idempotent, and safe for gateways starting
   * together.
   */
  async ensureAdmin(adminApiKey: string | undefined): Promise<'active' | 'revoked' | 'none'> {
    const now = this.#now();
    const { accounts, apiKeys } = this.#collections;
    await accounts.updateOne(
      { _id: ADMIN_ACCOUNT_ID },
      {
        $set: { role: 'admin' },
        $setOnInsert: { email: ADMIN_EMAIL, name: 'Administrator', createdAt: now },
      },
      { upsert: true },
    );
    if (adminApiKey === undefined) {
      await apiKeys.updateOne({ _id: ADMIN_KEY_ID, revokedAt: null }, { $set: { revokedAt: now } });
      return 'none';
    }
    const hash = hashApiKey(adminApiKey);
    const key = {
      accountId: ADMIN_ACCOUNT_ID,
      role: 'admin' as const,
      hash,
      prefix: keyPrefix(adminApiKey),
      revokedAt: null,
    };
    try {
      await apiKeys.insertOne({ _id: ADMIN_KEY_ID, ...key, createdAt: now, lastUsedAt: null });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    await apiKeys.updateOne({ _id: ADMIN_KEY_ID, hash: { $ne: hash } }, { $set: key });
    const stored = await apiKeys.findOne({ _id: ADMIN_KEY_ID });
    return stored?.revokedAt ? 'revoked' : 'active';
  }

  #newKey(accountId: string, role: Role, now: Date): { apiKey: string; document: ApiKeyDocument } {
    const apiKey = newApiKey();
    return {
      apiKey,
      document: {
        _id: newKeyId(),
        accountId,
        role,
        hash: hashApiKey(apiKey),
        prefix: keyPrefix(apiKey),
        createdAt: now,
        lastUsedAt: null,
        revokedAt: null,
      },
    };
  }
}

function iso(date: Date): string {
  return date.toISOString();
}

function toAccount(account: AccountDocument): Account {
  return {
    id: account._id,
    email: account.email,
    name: account.name,
    role: account.role,
    createdAt: iso(account.createdAt),
  };
}

function toApiKey(key: ApiKeyDocument): ApiKey {
  return {
    id: key._id,
    prefix: key.prefix,
    createdAt: iso(key.createdAt),
    lastUsedAt: key.lastUsedAt ? iso(key.lastUsedAt) : null,
  };
}
