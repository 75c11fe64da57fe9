import type { ApiPromise } from '../api-promise.js';
import { list, type List } from '../auto-pagination.js';
import { path } from '../path.js';
import type { RequestOptions, RequestSender } from '../request-sender.js';
import type {
  Account,
  ApiKey,
  CreatedAccount,
  CreatedApiKey,
  Empty,
  ListKeysQuery,
  NewAccount,
  WithRequestId,
} from '../types.js';

/** Sign-up, the current account and its API keys. */
export class Accounts {
  constructor(private readonly sender: RequestSender) {}

  /**
   * Create an account
   *
   * Needs no key. The result's `apiKey` is shown this once. An email already used is 409 `conflict`.
   * @operationId createAccount
   */
  create(
    body: NewAccount,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<CreatedAccount>> {
    return this.sender.request(
      { method: 'POST', path: '/v2/accounts', body },
      options,
    );
  }

  /**
   * Get the current account
   *
   * The account the API key belongs to.
   * @operationId getMe
   */
  me(options?: RequestOptions): ApiPromise<WithRequestId<Account>> {
    return this.sender.request(
      { method: 'GET', path: '/v2/accounts/me' },
      options,
    );
  }

  /**
   * Create an API key
   *
   * The result's `apiKey` is shown this once; the other keys keep working.
   * @experimental
   * @operationId createKey
   */
  createKey(
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<CreatedApiKey>> {
    return this.sender.request(
      { method: 'POST', path: '/v2/accounts/me/keys' },
      options,
    );
  }

  /**
   * List API keys
   *
   * Every live key, oldest first, never the key itself.
   * @experimental
   * @operationId listKeys
   */
  listKeys(query?: ListKeysQuery, options?: RequestOptions): List<ApiKey> {
    return list(this.sender, { path: '/v2/accounts/me/keys', query }, options);
  }

  /**
   * Revoke an API key
   *
   * The key gets 401 from then on, even when it is the one making this call.
   * @experimental
   * @operationId revokeKey
   */
  revokeKey(keyId: string, options?: RequestOptions): ApiPromise<Empty> {
    const spec = {
      method: 'DELETE',
      path: path`/v2/accounts/me/keys/${keyId}`,
    } as const;
    return this.sender.requestEmpty(spec, options);
  }
}
