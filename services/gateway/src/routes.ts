import { contract } from '@petstore/contract';
import {
  AppError,
  decodeCursor,
  keyedRequest,
  operationOf,
  pageOf,
  REPLAYED_HEADER,
  requireCaller,
  type Executed,
  type Idempotency,
  type Session,
} from '@petstore/service-kit';
import type { Context } from 'koa';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { Accounts } from './accounts/accounts.js';
import type { Authenticator } from './auth/authentication.js';
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
  /** `Idempotency-Key` records, in the gateway's database. */
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

/** The request's `Idempotency-Key`, bound to its owner, operation and body. */
function keyOf(
  ctx: Context,
  owner: string,
  headers: { 'idempotency-key'?: string },
  body: unknown,
) {
  return keyedRequest(owner, headers['idempotency-key'], {
    operation: operationOf(ctx),
    body,
  });
}

/** A response made, or made before under the request's `Idempotency-Key`. */
function answered<T>(ctx: Context, { body, replayed }: Executed<T>): T {
  if (replayed) ctx.set(REPLAYED_HEADER, 'true');
  return body;
}

function found<T>(
  value: T | undefined,
  notFound: () => AppError = webhookNotFound,
): T {
  if (value === undefined) throw notFound();
  return value;
}

export function gatewayRoutes(
  deps: GatewayRoutesDeps,
): RouterImplementation<typeof gatewayContract> {
  const { accounts, messages, webhooks, deliveries, idempotency } = deps;
  /** Runs `work` once per `Idempotency-Key` of `owner`'s, the key's record written with it. */
  const once = async <T extends object>(
    ctx: Context,
    request: {
      owner: string;
      headers: { 'idempotency-key'?: string };
      body?: unknown;
    },
    status: number,
    work: (session: Session) => Promise<T>,
  ): Promise<T> => {
    const keyed = keyOf(ctx, request.owner, request.headers, request.body);
    const made = await idempotency.run<T>(keyed, async (session) => ({
      status,
      body: await work(session),
    }));
    return answered(ctx, made);
  };
  const own: RouterImplementation<typeof gatewayContract.v2> = {
    accounts: {
      // No account yet: a key is kept per client address.
      createAccount: async ({ headers, body, ctx }) => ({
        status: 201,
        body: await once(
          ctx,
          { owner: `address:${ctx.ip}`, headers, body },
          201,
          (session) =>
            accounts.createCustomer(body.email, body.name ?? null, session),
        ),
      }),
      getMe: async ({ ctx }) => {
        const account = await accounts.getAccount(requireCaller(ctx).accountId);
        const gone = () =>
          new AppError(
            'unauthorized',
            'the API key’s account no longer exists',
          );
        return { status: 200, body: found(account, gone) };
      },
      createKey: async ({ headers, ctx }) => {
        const caller = requireCaller(ctx);
        const request = { owner: caller.accountId, headers };
        return {
          status: 201,
          body: await once(ctx, request, 201, (session) =>
            accounts.createKey(caller, session),
          ),
        };
      },
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
        deps.authenticator.forget(
          found(hash, () => new AppError('not_found', 'no such API key')),
        );
        return { status: 204, body: undefined };
      },
    },
    messages: {
      sendMessage: async ({ headers, body, ctx }) => {
        const { accountId } = requireCaller(ctx);
        const queue = (session?: Session) =>
          messages.queue(accountId, body.message, session);
        const request = { owner: accountId, headers, body };
        // Without a key a message is one insert, atomic without a transaction.
        const message =
          headers['idempotency-key'] === undefined
            ? await queue()
            : await once(ctx, request, 202, queue);
        // A replay too: the first request's gateway may have died; claims are conditional.
        deps.onMessageQueued(message.id);
        return { status: 202, body: message };
      },
      getMessage: async ({ params, ctx }) => {
        const message = await messages.getVisibleTo(
          requireCaller(ctx),
          params.messageId,
        );
        const noSuchMessage = () =>
          new AppError('not_found', 'no such message');
        return { status: 200, body: found(message, noSuchMessage) };
      },
    },
    webhooks: {
      createWebhook: async ({ headers, body, ctx }) => {
        const caller = requireCaller(ctx);
        const request = { owner: caller.accountId, headers, body };
        return {
          status: 201,
          body: await once(ctx, request, 201, (session) =>
            webhooks.create(caller, body, session),
          ),
        };
      },
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
      rotateWebhookSecret: async ({ params, headers, ctx }) => {
        const caller = requireCaller(ctx);
        const request = { owner: caller.accountId, headers };
        const body = await once(ctx, request, 201, async (session) => ({
          secret: found(
            await webhooks.rotateSecret(caller, params.webhookId, session),
          ),
        }));
        return { status: 201, body };
      },
      listWebhookDeliveries: async ({ params, query, ctx }) => {
        const page = timePage(query);
        const items = await deliveries.list(
          requireCaller(ctx),
          params.webhookId,
          page,
        );
        return { status: 200, body: pageOf(ctx, items, query.limit) };
      },
      retryWebhookDelivery: async ({ params, headers, ctx }) => {
        const caller = requireCaller(ctx);
        const { webhookId, deliveryId } = params;
        const request = { owner: caller.accountId, headers };
        const delivery = await once(ctx, request, 202, (session) =>
          deliveries.retry(caller, webhookId, deliveryId, session),
        );
        deps.onWebhookDeliveryDue();
        return { status: 202, body: delivery };
      },
      testWebhook: async ({ params, headers, ctx }) => {
        const caller = requireCaller(ctx);
        const request = { owner: caller.accountId, headers };
        const delivery = await once(ctx, request, 202, (session) =>
          webhooks.sendTest(caller, params.webhookId, session),
        );
        deps.onWebhookDeliveryDue();
        return { status: 202, body: delivery };
      },
    },
  };
  return {
    v2: own,
    v1: own,
    meta: docsRoutes(deps.openApiDocument, deps.publicUrl),
  };
}
