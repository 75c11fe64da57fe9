import type {
  Account,
  ApiKey,
  CreatedAccount,
  CreatedApiKey,
} from '@petstore/contract';
import {
  AppError,
  findPage,
  isDuplicateKey,
  type Session,
  type TimePage,
} from '@petstore/service-kit';
import type { Db } from 'mongodb';
import { storedKey, type IssuedApiKey } from '../auth/api-key-secret.js';
import type { KeyOwner } from '../auth/authentication.js';
import {
  gatewayCollections,
  type AccountDocument,
} from '../database/collections.js';
import { MAX_ACTIVE_KEYS, refuseOverLimit } from './account-limits.js';

const ADMIN_ACCOUNT_ID = 'acct_admin';
const ADMIN_KEY_ID = 'key_admin';

/** Accounts and their API keys, of which only the hash is stored (`issueApiKey`). */
export class Accounts {
  readonly #collections;

  constructor(db: Db) {
    this.#collections = gatewayCollections(db);
  }

  async createCustomer(
    { email, name = null }: { email: string; name?: string | null },
    { apiKey, document }: IssuedApiKey,
    session: Session,
  ): Promise<CreatedAccount> {
    const { apiKeys, accounts } = this.#collections;
    const { accountId: _id, createdAt } = document;
    const account: AccountDocument = {
      _id,
      email,
      name,
      role: 'customer',
      createdAt,
    };
    try {
      await accounts.insertOne(account, { session });
      await apiKeys.insertOne(document, { session });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      throw new AppError(
        'conflict',
        'an account with this email already exists',
        { cause: error },
      );
    }
    return { ...toAccount(account), apiKey };
  }

  async getAccount(accountId: string): Promise<Account | undefined> {
    const account = await this.#collections.accounts.findOne({
      _id: accountId,
    });
    return account ? toAccount(account) : undefined;
  }

  async createKey(
    { apiKey, document }: IssuedApiKey,
    session: Session,
  ): Promise<CreatedApiKey> {
    const { accounts, apiKeys } = this.#collections;
    const { accountId } = document;
    await refuseOverLimit(accounts, session, {
      accountId,
      max: MAX_ACTIVE_KEYS,
      what: 'active keys',
      count: () =>
        apiKeys.countDocuments({ accountId, revokedAt: null }, { session }),
    });
    await apiKeys.insertOne(document, { session });
    const { _id: id, prefix, createdAt } = document;
    return { id, apiKey, prefix, createdAt: createdAt.toISOString() };
  }

  async listKeys(accountId: string, page: TimePage): Promise<ApiKey[]> {
    const live = { accountId, revokedAt: null };
    return (
      await findPage(this.#collections.apiKeys, live, page, 'ascending')
    ).map(({ _id: id, prefix, createdAt, lastUsedAt }) => ({
      id,
      prefix,
      createdAt: createdAt.toISOString(),
      lastUsedAt: lastUsedAt?.toISOString() ?? null,
    }));
  }

  /** The revoked key's hash (to evict it from caches); undefined when no such live key. */
  async revokeKey(
    accountId: string,
    keyId: string,
  ): Promise<string | undefined> {
    const revoked = await this.#collections.apiKeys.findOneAndUpdate(
      { _id: keyId, accountId, revokedAt: null },
      { $set: { revokedAt: new Date() } },
    );
    return revoked?.hash;
  }

  async findKeyOwner(hash: string): Promise<KeyOwner | undefined> {
    const key = await this.#collections.apiKeys.findOne({
      hash,
      revokedAt: null,
    });
    return key ? { keyId: key._id, ...key } : undefined;
  }

  /** Moves `lastUsedAt` forward for each key in one batch; never backwards. */
  async recordKeyUses(uses: ReadonlyMap<string, Date>): Promise<void> {
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
   * Upserts `acct_admin` and makes `ADMIN_API_KEY` its key `key_admin`: a new value replaces the
   * old key, the same value never brings back a key revoked through the API ('revoked'), and
   * unset revokes it ('none'). Idempotent, and safe for gateways starting together.
   */
  async ensureAdmin(
    adminApiKey: string | undefined,
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
    if (adminApiKey === undefined) {
      await apiKeys.updateOne(
        { _id: ADMIN_KEY_ID, revokedAt: null },
        { $set: { revokedAt: now } },
      );
      return 'none';
    }
    const key = {
      accountId: ADMIN_ACCOUNT_ID,
      role: 'admin' as const,
      ...storedKey(adminApiKey),
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
