import { contract, storedId } from '@petstore/contract';
import { decodeCursor, pageOf, requireCaller } from '@petstore/service-kit';
import { createKoaRouter } from '@petstore/ts-rest-koa';
import type { Context } from 'koa';
import type { Inventory } from './inventory/inventory.js';
import type { Orders } from './orders/orders.js';
import type { RequestScope } from './request-scope.js';

const storeContract = { orders: contract.orders, inventory: contract.inventory };

export interface StoreRoutesDeps {
  orders: Orders;
  inventory: Inventory;
}

function requestOf(ctx: Context): RequestScope {
  return { requestId: ctx.requestId, logger: ctx.log };
}

export function createStoreRouter(
  { orders, inventory }: StoreRoutesDeps,
  { validateResponses = false } = {},
) {
  return createKoaRouter(
    storeContract,
    {
      orders: {
        listOrders: async ({ query, ctx }) => {
          const caller = requireCaller(ctx);
          const found = await orders.list(caller, {
            petId: query.petId === undefined ? undefined : storedId(query.petId),
            complete: query.complete,
            after: decodeCursor(query.cursor),
            limit: query.limit + 1,
          });
          return { status: 200, body: pageOf(ctx, found, query.limit) };
        },
        placeOrder: async ({ headers, body, ctx }) => {
          const caller = requireCaller(ctx);
          const key = headers['idempotency-key'];
          const response = await orders.place(caller, body, key, requestOf(ctx));
          ctx.set('Location', `/v1/store/orders/${response.body.id}`);
          return response;
        },
        getOrder: async ({ params, ctx }) => {
          const caller = requireCaller(ctx);
          return { status: 200, body: await orders.get(caller, params.orderId) };
        },
        updateOrder: async ({ params, body, ctx }) => {
          const caller = requireCaller(ctx);
          const order = await orders.update(caller, params.orderId, body, requestOf(ctx));
          return { status: 200, body: order };
        },
        cancelOrder: async ({ params, ctx }) => {
          const caller = requireCaller(ctx);
          await orders.cancel(caller, params.orderId, requestOf(ctx));
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
          const keyed = items.map((item) => ({ id: item.petId, item }));
          return { status: 200, body: pageOf(ctx, keyed, query.limit).map(({ item }) => item) };
        },
        getInventoryItem: async ({ params }) => {
          return { status: 200, body: await inventory.get(params.petId) };
        },
        setInventory: async ({ params, body, ctx }) => {
          const caller = requireCaller(ctx);
          const item = await inventory.set(caller, params.petId, body.quantity, requestOf(ctx));
          return { status: 200, body: item };
        },
      },
    },
    { validateResponses },
  );
}
