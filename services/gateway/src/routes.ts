import { contract } from '@petstore/contract';
import { AppError, decodeCursor, pageOf, requireCaller } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { AccountRepository } from './accounts/account-repository.js';
import type { Authenticator } from './auth/authentication.js';
import { docsContract, docsRoutes, type OpenApiDocument } from './docs/docs-page.js';
import type { MessageRepository } from './messages/message-repository.js';
import type { DeliveryRepository } from './webhooks/delivery-repository.js';
import { webhookNotFound, type WebhookRepository } from './webhooks/webhook-repository.js';

/**
 * The operations the gateway serves itself (route metadata `service: 'gateway'`), in both
 * versions (the same handlers serve each).
 */
export const gatewayContract = {
  v2: {
    accounts: contract.v2.accounts,
    messages: contract.v2.messages,
    webhooks: contract.v2.webhooks,
  },
  v1: {
    accounts: contract.v1.accounts,
    messages: contract.v1.messages,
    webhooks: contract.v1.webhooks,
  },
  meta: docsContract,
};

export interface GatewayRoutesDeps {
  accounts: AccountRepository;
  authenticator: Authenticator;
  messages: MessageRepository;
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  /** Called once a message is queued, to have the worker deliver it. */
  onMessageQueued: (id: string) => void;
  /** Called once a delivery is due now, to wake the delivery worker. */
  onWebhookDeliveryDue: () => void;
  openApiDocument: OpenApiDocument;
  publicUrl: string;
}

const timePage = (query: { cursor?: string; limit: number }) => ({
  after: decodeCursor(query.cursor, 'time'),
  limit: query.limit + 1,
});

function found<T>(value: T | undefined, notFound: () => AppError = webhookNotFound): T {
  if (value === undefined) throw notFound();
  return value;
}

export function gatewayRoutes(
  deps: GatewayRoutesDeps,
): RouterImplementation<typeof gatewayContract> {
  const { accounts, messages, webhooks, deliveries } = deps;
  const own: RouterImplementation<typeof gatewayContract.v2> = {
    accounts: {
      createAccount: async ({ body }) => ({
        status: 201,
        body: await accounts.createCustomer(body.email, body.name ?? null),
      }),
      getMe: async ({ ctx }) => {
        const account = await accounts.getAccount(requireCaller(ctx).accountId);
        const gone = () => new AppError('unauthorized', 'the API key’s account no longer exists');
        return { status: 200, body: found(account, gone) };
      },
      createKey: async ({ ctx }) => ({
        status: 201,
        body: await accounts.createKey(requireCaller(ctx)),
      }),
      listKeys: async ({ query, ctx }) => {
        const keys = await accounts.listKeys(requireCaller(ctx).accountId, timePage(query));
        return { status: 200, body: pageOf(ctx, keys, query.limit) };
      },
      revokeKey: async ({ params, ctx }) => {
        const hash = await accounts.revokeKey(requireCaller(ctx).accountId, params.keyId);
        deps.authenticator.forget(found(hash, () => new AppError('not_found', 'no such API key')));
        return { status: 204, body: undefined };
      },
    },
    messages: {
      sendMessage: async ({ headers, body, ctx }) => {
        const { accountId } = requireCaller(ctx);
        const message = await messages.queue(accountId, body.message, headers['idempotency-key']);
        // A replay too: the first request's gateway may have died; claims are conditional.
        deps.onMessageQueued(message.id);
        return { status: 202, body: message };
      },
      getMessage: async ({ params, ctx }) => {
        const message = await messages.getVisibleTo(requireCaller(ctx), params.messageId);
        const noSuchMessage = () => new AppError('not_found', 'no such message');
        return { status: 200, body: found(message, noSuchMessage) };
      },
    },
    webhooks: {
      createWebhook: async ({ body, ctx }) => ({
        status: 201,
        body: await webhooks.create(requireCaller(ctx), body),
      }),
      listWebhooks: async ({ query, ctx }) => {
        const items = await webhooks.list(requireCaller(ctx), timePage(query));
        return { status: 200, body: pageOf(ctx, items, query.limit) };
      },
      getWebhook: async ({ params, ctx }) => ({
        status: 200,
        body: found(await webhooks.get(requireCaller(ctx), params.webhookId)),
      }),
      updateWebhook: async ({ params, body, ctx }) => ({
        status: 200,
        body: found(await webhooks.update(requireCaller(ctx), params.webhookId, body)),
      }),
      deleteWebhook: async ({ params, ctx }) => {
        if (!(await webhooks.delete(requireCaller(ctx), params.webhookId))) throw webhookNotFound();
        return { status: 204, body: undefined };
      },
      rotateWebhookSecret: async ({ params, ctx }) => ({
        status: 201,
        body: { secret: found(await webhooks.rotateSecret(requireCaller(ctx), params.webhookId)) },
      }),
      listWebhookDeliveries: async ({ params, query, ctx }) => {
        const page = timePage(query);
        const items = await deliveries.list(requireCaller(ctx), params.webhookId, page);
        return { status: 200, body: pageOf(ctx, items, query.limit) };
      },
      retryWebhookDelivery: async ({ params, ctx }) => {
        const caller = requireCaller(ctx);
        const delivery = await deliveries.retry(caller, params.webhookId, params.deliveryId);
        deps.onWebhookDeliveryDue();
        return { status: 202, body: delivery };
      },
    },
  };
  return { v2: own, v1: own, meta: docsRoutes(deps.openApiDocument, deps.publicUrl) };
}
