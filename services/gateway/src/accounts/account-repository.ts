import type { Account, ApiKey } from '@petstore/contract';
import {
  AppError,
  findPage,
  isDuplicateKey,
  type Session,
  type TimePage,
} from '@petstore/service-kit';
import type { Db } from 'mongodb';
import type { KeyOwner } from '../auth/key-cache.js';
import {
  gatewayCollections,
  type AccountDocument,
  type ApiKeyDocument,
  type GatewayCollections,
} from '../database/collections.js';
import { MAX_ACTIVE_KEYS, refuseOverLimit } from './account-limits.js';

/** What is kept of a key besides its owner and times. */
export type StoredKey = Pick<ApiKeyDocument, 'hash' | 'prefix'>;

export const ADMIN_ACCOUNT_ID = 'acct_admin';
export const ADMIN_KEY_ID = 'key_admin';

export class AccountRepository {
  readonly #collections: GatewayCollections;

  constructor(db: Db) {
    this.#collections = gatewayCollections(db);
  }

  /** The account and its first key, in the transaction of `session`. A duplicate email is 409. */
  async insertCustomer(
    account: AccountDocument,
    key: ApiKeyDocument,
    session: Session,
  ): Promise<Account> {
    const { apiKeys, accounts } = this.#collections;
    try {
      await accounts.insertOne(account, { session });
      await apiKeys.insertOne(key, { session });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      throw new AppError(
        'conflict',
        'an account with this email already exists',
        { cause: error },
      );
    }
    return toAccount(account);
  }

  async getAccount(accountId: string): Promise<Account | undefined> {
    const account = await this.#collections.accounts.findOne({
      _id: accountId,
    });
    return account ? toAccount(account) : undefined;
  }

  /** In the transaction of `session`; 409 once the account has 10 keys not revoked. */
  async insertKey(document: ApiKeyDocument, session: Session): Promise<void> {
    const { accountId } = document;
    const { accounts, apiKeys } = this.#collections;
    const count = () =>
      apiKeys.countDocuments({ accountId, revokedAt: null }, { session });
    const limit = {
      accountId,
      max: MAX_ACTIVE_KEYS,
      what: 'active keys',
      count,
    };
    await refuseOverLimit(accounts, session, limit);
    await apiKeys.insertOne(document, { session });
  }

  /** A page of the account's live keys, oldest first. */
  async listKeys(accountId: string, page: TimePage): Promise<ApiKey[]> {
    const live = { accountId, revokedAt: null };
    return (
      await findPage(this.#collections.apiKeys, live, page, 'ascending')
    ).map(toApiKey);
  }

  /** The revoked key's hash (to evict it from caches); undefined when no such live key. */
  async revokeKey(
    accountId: string,
    keyId: string,
  ): Promise<string | undefined> {
    const revoked = await this.#collections.apiKeys.findOneAndUpdate(
      { _id: keyId, accountId, revokedAt: null },
      { $set: { revokedAt: new Date() } },
      { returnDocument: 'after' },
    );
    return revoked?.hash;
  }

  async findKeyOwner(hash: string): Promise<KeyOwner | undefined> {
    const key = await this.#collections.apiKeys.findOne({
      hash,
      revokedAt: null,
    });
    return key
      ? {
          keyId: key._id,
          hash: key.hash,
          accountId: key.accountId,
          role: key.role,
        }
      : undefined;
  }

  /** Moves `lastUsedAt` forward for each key in one batch; never backwards. */
  async recordKeyUses(uses: ReadonlyMap<string, Date>): Promise<void> {
    if (uses.size === 0) return;
    await this.#collections.apiKeys.bulkWrite(
      [...uses].map(([keyId, usedAt]) => ({
        updateOne: {
          filter: {
            _id: keyId,
            $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: usedAt } }],
          },
          update: { $set: { lastUsedAt: usedAt } },
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Upserts `acct_admin` and makes `adminKey` (what is kept of `ADMIN_API_KEY`) its key
   * `key_admin`: a new value replaces the old key, the same value never brings back a key revoked
   * through the API ('revoked'), and none revokes it. Idempotent, and safe for gateways starting
   * together.
   */
  async ensureAdmin(
    adminKey: StoredKey | undefined,
  ): Promise<'active' | 'revoked' | 'none'> {
    const now = new Date();
    const { accounts, apiKeys } = this.#collections;
    await accounts.updateOne(
      { _id: ADMIN_ACCOUNT_ID },
      {
        $set: { role: 'admin' },
        // An email no customer can take.
        $setOnInsert: {
          email: 'admin@petstore.invalid',
          name: 'Administrator',
          createdAt: now,
        },
      },
      { upsert: true },
    );
    if (adminKey === undefined) {
      await apiKeys.updateOne(
        { _id: ADMIN_KEY_ID, revokedAt: null },
        { $set: { revokedAt: now } },
      );
      return 'none';
    }
    const key = {
      accountId: ADMIN_ACCOUNT_ID,
      role: 'admin' as const,
      ...adminKey,
    };
    await apiKeys
      .insertOne({
        _id: ADMIN_KEY_ID,
        ...key,
        createdAt: now,
        lastUsedAt: null,
        revokedAt: null,
      })
      .catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      });
    const replaced = { _id: ADMIN_KEY_ID, hash: { $ne: key.hash } };
    await apiKeys.updateOne(replaced, { $set: { ...key, revokedAt: null } });
    const stored = await apiKeys.findOne({ _id: ADMIN_KEY_ID });
    return stored?.revokedAt ? 'revoked' : 'active';
  }
}

function toAccount({
  _id: id,
  email,
  name,
  role,
  createdAt,
}: AccountDocument): Account {
  return { id, email, name, role, createdAt: createdAt.toISOString() };
}

function toApiKey({
  _id: id,
  prefix,
  createdAt,
  lastUsedAt,
}: ApiKeyDocument): ApiKey {
  const lastUsed = lastUsedAt?.toISOString() ?? null;
  return {
    id,
    prefix,
    createdAt: createdAt.toISOString(),
    lastUsedAt: lastUsed,
  };
}
