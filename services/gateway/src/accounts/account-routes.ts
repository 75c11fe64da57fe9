import type { contract } from '@petstore/contract';
import { AppError, requireCaller } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { Authenticator } from '../auth/authentication.js';
import type { AccountRepository } from './account-repository.js';

export interface AccountRoutesDeps {
  accounts: AccountRepository;
  authenticator: Authenticator;
}

export function accountRoutes({
  accounts,
  authenticator,
}: AccountRoutesDeps): RouterImplementation<typeof contract.accounts> {
  return {
    createAccount: async ({ body }) => ({
      status: 201,
      body: await accounts.createCustomer(body.email, body.name ?? null),
    }),
    getMe: async ({ ctx }) => {
      const account = await accounts.getAccount(requireCaller(ctx).accountId);
      if (!account) throw new AppError('unauthorized', 'the API key’s account no longer exists');
      return { status: 200, body: account };
    },
    createKey: async ({ ctx }) => ({
      status: 201,
      body: await accounts.createKey(requireCaller(ctx)),
    }),
    listKeys: async ({ ctx }) => ({
      status: 200,
      body: await accounts.listKeys(requireCaller(ctx).accountId),
    }),
    revokeKey: async ({ params, ctx }) => {
      const hash = await accounts.revokeKey(requireCaller(ctx).accountId, params.keyId);
      if (hash === undefined) throw new AppError('not_found', 'no such API key');
      authenticator.forget(hash);
      return { status: 204, body: undefined };
    },
  };
}
