import { contract, storedId } from '@petstore/contract';
import {
  decodeCursor,
  encodeCursor,
  pageOf,
  REPLAYED_HEADER,
  requireCaller,
} from '@petstore/service-kit';
import {
  createKoaRouter,
  type RouterImplementation,
} from '@petstore/ts-rest-koa';
import type { Context } from 'koa';
import type { Inventory } from './inventory/inventory.js';
import type { Orders } from './orders/orders.js';
import type { RequestScope } from './request-scope.js';

/** The request as use cases are told of it: who asks, and its id. */
function requestScope(ctx: Context): RequestScope {
  return { caller: requireCaller(ctx), requestId: ctx.requestId };
}

export function createStoreRouter(
  { orders, inventory }: { orders: Orders; inventory: Inventory },
  validateResponses = false,
) {
  // Both versions, served by the same handlers.
  const routes = {
    v2: { orders: contract.v2.orders, inventory: contract.v2.inventory },
    v1: { orders: contract.v1.orders, inventory: contract.v1.inventory },
  };
  const handlers: RouterImplementation<typeof routes.v2> = {
    orders: {
      listOrders: async ({ query, ctx }) => {
        const found = await orders.list(requireCaller(ctx), {
          petId: query.petId === undefined ? undefined : storedId(query.petId),
          complete: query.complete,
          after: decodeCursor(query.cursor),
          limit: query.limit + 1,
        });
        return { status: 200, body: pageOf(ctx, found, query.limit) };
      },
      placeOrder: async ({ headers, body, ctx }) => {
        const { body: order, replayed } = await orders.place(body, {
          ...requestScope(ctx),
          idempotencyKey: headers['idempotency-key'],
        });
        // In the current version, whichever version was asked.
        ctx.set(
          'Location',
          `${contract.v2.orders.listOrders.path}/${order.id}`,
        );
        if (replayed) ctx.set(REPLAYED_HEADER, 'true');
        return { status: 201, body: order };
      },
      getOrder: async ({ params, ctx }) => {
        return {
          status: 200,
          body: await orders.get(requireCaller(ctx), params.orderId),
        };
      },
      updateOrder: async ({ params, body, ctx }) => {
        const order = await orders.update(
          requireCaller(ctx),
          params.orderId,
          body,
        );
        return { status: 200, body: order };
      },
      cancelOrder: async ({ params, ctx }) => {
        await orders.cancel(requireCaller(ctx), params.orderId);
        return { status: 204, body: undefined };
      },
    },
    inventory: {
      listInventory: async ({ query, ctx }) => {
        const items = await inventory.list({
          statuses: query.status,
          after: decodeCursor(query.cursor),
          limit: query.limit + 1,
        });
        const body = pageOf(ctx, items, query.limit, (last) =>
          encodeCursor(last.petId),
        );
        return { status: 200, body };
      },
      getInventoryItem: async ({ params }) => {
        return { status: 200, body: await inventory.get(params.petId) };
      },
      setInventory: async ({ params, body, ctx }) => {
        const item = await inventory.set(
          params.petId,
          body.quantity,
          requestScope(ctx),
        );
        return { status: 200, body: item };
      },
    },
  };
  return createKoaRouter(
    routes,
    { v2: handlers, v1: handlers },
    { validateResponses },
  );
}
