import { contract, type OpenApiDocumentSchema } from '@petstore/contract';
import type { z } from 'zod';
import { AppError } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { AccountRepository } from './account-repository.js';
import type { Authenticator } from './authentication.js';
import { requireCaller } from './caller.js';
import { DOCS_HTML, docsContentSecurityPolicy } from './docs-page.js';
import type { MessageRepository } from './message-repository.js';

/** The operations the gateway answers itself (route metadata `service: 'gateway'`). */
export const gatewayContract = {
  accounts: contract.accounts,
  messages: contract.messages,
  meta: { openapi: contract.meta.openapi, docs: contract.meta.docs },
};
export type GatewayContract = typeof gatewayContract;

export type OpenApiDocument = z.output<typeof OpenApiDocumentSchema>;

export interface GatewayRoutesDeps {
  accounts: AccountRepository;
  messages: MessageRepository;
  authenticator: Authenticator;
  /** The OpenAPI document, made once at start. */
  openApiDocument: OpenApiDocument;
  publicUrl: string;
  /** Called once a message is queued, e.g. to wake the delivery worker. */
  onMessageQueued: () => void;
}

function notFound(what: string): AppError {
  return new AppError('not_found', `no such ${what}`);
}

export function gatewayRoutes({
  accounts,
  messages,
  authenticator,
  openApiDocument,
  publicUrl,
  onMessageQueued,
}: GatewayRoutesDeps): RouterImplementation<GatewayContract> {
  return {
    accounts: {
      createAccount: async ({ body }) => {
        const created = await accounts.createCustomer(body.email, body.name ?? null);
        return { status: 201, body: created };
      },
      getMe: async ({ ctx }) => {
        const account = await accounts.getAccount(requireCaller(ctx).accountId);
        if (!account) throw new AppError('unauthorized', 'the API key’s account no longer exists');
        return { status: 200, body: account };
      },
      createKey: async ({ ctx }) => {
        const created = await accounts.createKey(requireCaller(ctx).accountId);
        return { status: 201, body: created };
      },
      listKeys: async ({ ctx }) => ({
        status: 200,
        body: await accounts.listKeys(requireCaller(ctx).accountId),
      }),
      revokeKey: async ({ params, ctx }) => {
        const hash = await accounts.revokeKey(requireCaller(ctx).accountId, params.keyId);
        if (hash === undefined) throw notFound('API key');
        authenticator.forget(hash);
        return { status: 204, body: undefined };
      },
    },
    messages: {
      sendMessage: async ({ body, ctx }) => {
        const message = await messages.queue(requireCaller(ctx).accountId, body.message);
        onMessageQueued();
        return { status: 202, body: message };
      },
      getMessage: async ({ params, ctx }) => {
        const message = await messages.getVisibleTo(requireCaller(ctx), params.messageId);
        if (!message) throw notFound('message');
        return { status: 200, body: message };
      },
    },
    meta: {
      openapi: () => Promise.resolve({ status: 200, body: openApiDocument }),
      docs: ({ ctx }) => {
        ctx.set('Content-Security-Policy', docsContentSecurityPolicy(publicUrl));
        return Promise.resolve({ status: 200, body: DOCS_HTML });
      },
    },
  };
}
