import { contract } from '@petstore/contract';
import {
  AppError,
  decodeCursor,
  keyedRequest,
  operationOf,
  pageOf,
  REPLAYED_HEADER,
  type Idempotency,
  requireCaller,
  type Session,
} from '@petstore/service-kit';
import type { Context } from 'koa';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { Accounts } from './accounts/accounts.js';
import { issueApiKey } from './auth/api-key-secret.js';
import type { Authenticator } from './auth/authentication.js';
import { newAccountId } from './database/ids.js';
import {
  docsContract,
  docsRoutes,
  type OpenApiDocument,
} from './docs/docs-page.js';
import type { MessageRepository } from './messages/message-repository.js';
import type { DeliveryRepository } from './webhooks/delivery-repository.js';
import { webhookNotFound } from './webhooks/webhook-repository.js';
import type { Webhooks } from './webhooks/webhooks.js';

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
  accounts: Accounts;
  authenticator: Authenticator;
  messages: MessageRepository;
  webhooks: Webhooks;
  deliveries: DeliveryRepository;
  idempotency: Idempotency;
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

function found<T>(value: T | undefined, what = 'webhook'): T {
  if (value === undefined) throw new AppError('not_found', `no such ${what}`);
  return value;
}

/** What `once` needs of a handler's arguments. */
interface Keyed {
  ctx: Context;
  headers: { 'idempotency-key'?: string };
  body?: unknown;
}

export function gatewayRoutes(
  deps: GatewayRoutesDeps,
): RouterImplementation<typeof gatewayContract> {
  const { accounts, messages, webhooks, deliveries, idempotency } = deps;
  /**
   * `status` and what `work` makes, once per `Idempotency-Key` of `owner`'s (the caller's account
   * by default), the key's record written with it; a replay says so in its headers.
   */
  const once = async <T extends object, S extends number>(
    { ctx, headers, body }: Keyed,
    status: S,
    work: (session: Session) => Promise<T>,
    owner = requireCaller(ctx).accountId,
  ) => {
    const keyed = keyedRequest(owner, headers['idempotency-key'], {
      operation: operationOf(ctx),
      body,
    });
    const made = await idempotency.run<T>(keyed, async (session) => ({
      status,
      body: await work(session),
    }));
    if (made.replayed) ctx.set(REPLAYED_HEADER, 'true');
    return { status, body: made.body };
  };
  const own: RouterImplementation<typeof gatewayContract.v2> = {
    accounts: {
      // No account yet: a key is kept per client address.
      createAccount: (request) =>
        once(
          request,
          201,
          (session) =>
            accounts.createCustomer(
              request.body,
              issueApiKey({ accountId: newAccountId(), role: 'customer' }),
              session,
            ),
          `address:${request.ctx.ip}`,
        ),
      getMe: async ({ ctx }) => {
        const account = await accounts.getAccount(requireCaller(ctx).accountId);
        if (account) return { status: 200, body: account };
        throw new AppError(
          'unauthorized',
          'the API key’s account no longer exists',
        );
      },
      createKey: (request) =>
        once(request, 201, (session) =>
          accounts.createKey(issueApiKey(requireCaller(request.ctx)), session),
        ),
      listKeys: async ({ query, ctx }) => {
        const keys = await accounts.listKeys(
          requireCaller(ctx).accountId,
          timePage(query),
        );
        return { status: 200, body: pageOf(ctx, keys, query.limit) };
      },
      revokeKey: async ({ params, ctx }) => {
        const hash = await accounts.revokeKey(
          requireCaller(ctx).accountId,
          params.keyId,
        );
        deps.authenticator.forget(found(hash, 'API key'));
        return { status: 204, body: undefined };
      },
    },
    messages: {
      sendMessage: async (request) => {
        const { accountId } = requireCaller(request.ctx);
        const queue = (session?: Session) =>
          messages.queue(accountId, request.body.message, session);
        // Without a key a message is one insert, atomic without a transaction.
        const message =
          request.headers['idempotency-key'] === undefined
            ? await queue()
            : (await once(request, 202, queue)).body;
        // A replay too: the first request's gateway may have died; claims are conditional.
        deps.onMessageQueued(message.id);
        return { status: 202, body: message };
      },
      getMessage: async ({ params, ctx }) => {
        const message = await messages.getVisibleTo(
          requireCaller(ctx),
          params.messageId,
        );
        return { status: 200, body: found(message, 'message') };
      },
    },
    webhooks: {
      createWebhook: (request) =>
        once(request, 201, (session) =>
          webhooks.create(requireCaller(request.ctx), request.body, session),
        ),
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
        body: found(
          await webhooks.update(requireCaller(ctx), params.webhookId, body),
        ),
      }),
      deleteWebhook: async ({ params, ctx }) => {
        if (!(await webhooks.delete(requireCaller(ctx), params.webhookId)))
          throw webhookNotFound();
        return { status: 204, body: undefined };
      },
      rotateWebhookSecret: (request) =>
        once(request, 201, async (session) => ({
          secret: found(
            await webhooks.rotateSecret(
              requireCaller(request.ctx),
              request.params.webhookId,
              session,
            ),
          ),
        })),
      listWebhookDeliveries: async ({ params, query, ctx }) => {
        const items = await deliveries.list(
          requireCaller(ctx),
          params.webhookId,
          timePage(query),
        );
        return { status: 200, body: pageOf(ctx, items, query.limit) };
      },
      retryWebhookDelivery: async (request) => {
        const { webhookId, deliveryId } = request.params;
        const caller = requireCaller(request.ctx);
        const answer = await once(request, 202, (session) =>
          deliveries.retry(caller, webhookId, deliveryId, session),
        );
        deps.onWebhookDeliveryDue();
        return answer;
      },
      testWebhook: async (request) => {
        const caller = requireCaller(request.ctx);
        const answer = await once(request, 202, (session) =>
          webhooks.sendTest(caller, request.params.webhookId, session),
        );
        deps.onWebhookDeliveryDue();
        return answer;
      },
    },
  };
  return {
    v2: own,
    v1: own,
    meta: docsRoutes(deps.openApiDocument, deps.publicUrl),
  };
}
