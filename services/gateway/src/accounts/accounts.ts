import type { CreatedAccount, CreatedApiKey, Role } from '@petstore/contract';
import type { Caller, Session } from '@petstore/service-kit';
import { hashApiKey, keyPrefix, newApiKey } from '../auth/api-key-secret.js';
import type { ApiKeyDocument } from '../database/collections.js';
import { newAccountId, newKeyId } from '../database/ids.js';
import type { AccountRepository, StoredKey } from './account-repository.js';

export type Accounts = ReturnType<typeof createAccounts>;

/** Accounts and their API keys: a key is shown once, and only its hash is stored. */
export function createAccounts(accounts: AccountRepository) {
  return {
    // These need nothing beyond storage: the repository's own.
    getAccount: accounts.getAccount.bind(accounts),
    listKeys: accounts.listKeys.bind(accounts),
    revokeKey: accounts.revokeKey.bind(accounts),

    /** The account and its first key, in the transaction of `session`. A duplicate email is 409. */
    async createCustomer(
      email: string,
      name: string | null,
      session: Session,
    ): Promise<CreatedAccount> {
      const now = new Date();
      const account = {
        _id: newAccountId(),
        email,
        name,
        role: 'customer' as const,
        createdAt: now,
      };
      const { apiKey, document } = newKey(account._id, 'customer', now);
      const created = await accounts.insertCustomer(account, document, session);
      return { ...created, apiKey };
    },

    /** In the transaction of `session`; 409 once the account has 10 keys not revoked. */
    async createKey(
      { accountId, role }: Caller,
      session: Session,
    ): Promise<CreatedApiKey> {
      const { apiKey, document } = newKey(accountId, role, new Date());
      await accounts.insertKey(document, session);
      const { _id: id, prefix, createdAt } = document;
      return { id, apiKey, prefix, createdAt: createdAt.toISOString() };
    },

    /** Makes `ADMIN_API_KEY` the admin's key; unset, the admin has none. */
    ensureAdmin(adminApiKey: string | undefined) {
      return accounts.ensureAdmin(
        adminApiKey === undefined ? undefined : storedKey(adminApiKey),
      );
    },
  };
}

function newKey(accountId: string, role: Role, createdAt: Date) {
  const apiKey = newApiKey();
  const document: ApiKeyDocument = {
    _id: newKeyId(),
    accountId,
    role,
    ...storedKey(apiKey),
    createdAt,
    lastUsedAt: null,
    revokedAt: null,
  };
  return { apiKey, document };
}

/** What is kept of a key: its hash, and its first characters to recognise it by. */
function storedKey(apiKey: string): StoredKey {
  return { hash: hashApiKey(apiKey), prefix: keyPrefix(apiKey) };
}
