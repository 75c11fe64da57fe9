import type { ServiceProcess } from '@petstore/stack';
import { startMongod, type MongoServer } from '@petstore/testkit';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { databaseNames, DatabaseReader } from '../support/databases.js';
import { errorBody } from '../support/error-bodies.js';
import {
  MongoWireProxy,
  type WireCommand,
} from '../support/mongo-wire-proxy.js';
import {
  startTestStack,
  unthrottled,
  type TestStack,
} from '../support/test-stack.js';

/**
 * Closing an order — a cancel, a completion — writes the order and its pet's stock in one
 * transaction. Here the store dies in the middle of it, killed with SIGKILL by a proxy between it
 * and the database the moment it sends the stock's write: the order's write has reached the
 * database, uncommitted. Nothing of the closing may be applied then, and a retry of the request
 * after the store is back applies it exactly once.
 */

/** The stock each order's pet starts with, and what each order takes. */
const STOCK = 5;
const QUANTITY = 2;

let database: MongoServer;
let proxy: MongoWireProxy;
let api: TestStack;
let reader: DatabaseReader;
let customer: { apiKey: string; accountId: string };
/** The store process, killed and started again on its port. */
let store: ServiceProcess;

beforeAll(async () => {
  database = await startMongod();
  proxy = await MongoWireProxy.start(database.uri);
  // Every service reaches the database through the proxy; only the store's writes are watched.
  api = await startTestStack({ ...unthrottled, MONGODB_URI: proxy.uri });
  store = api.stack.store;
  reader = await DatabaseReader.connect(database.uri);
  customer = await api.signUp();
});

afterAll(async () => {
  await reader?.close();
  await api?.[Symbol.asyncDispose]();
  await proxy?.close();
  await database?.stop();
});

interface InventoryEntry {
  quantity: number;
  openOrders: number;
}

interface OrderEntry {
  cancelled: boolean;
  complete: boolean;
}

const inventoryOf = async (petId: number) =>
  (await reader
    .db(databaseNames.store)
    .collection('inventory')
    .findOne({ _id: petId as never })) as (Document & InventoryEntry) | null;

const orderOf = async (orderId: number) =>
  (await reader
    .db(databaseNames.store)
    .collection('orders')
    .findOne({ _id: orderId as never })) as (Document & OrderEntry) | null;

/** A pet with `STOCK` in stock and an order of `QUANTITY` of it by the customer. */
async function placedOrder(): Promise<{ petId: number; orderId: number }> {
  const { petId } = await stockedPet(api.admin, STOCK);
  const placed = ok(
    await api
      .client(customer.apiKey)
      .orders.placeOrder({ body: { petId, quantity: QUANTITY } }),
    201,
  );
  return { petId, orderId: Number(placed.body.id) };
}

/** The value a command's filter gives `_id`, as a number. */
function filterId(command: WireCommand): number | undefined {
  const query = command.body.query as Document | undefined;
  const id: unknown = query?._id;
  return typeof id === 'number' || typeof id === 'bigint'
    ? Number(id)
    : undefined;
}

/**
 * Arms the proxy: once the store has sent the order's `findAndModify` on `orders`, the next
 * `findAndModify` on `inventory` (the stock's write, in the same transaction) kills the store
 * before it reaches the database. Resolves once armed; `killed` with the two commands, as the
 * store is killed.
 */
async function killStoreInTransaction(
  orderId: number,
): Promise<{ killed: Promise<{ order: WireCommand; stock: WireCommand }> }> {
  const pid = await store.pid();
  const killed = new Promise<{ order: WireCommand; stock: WireCommand }>(
    (resolve) => {
      let order: WireCommand | undefined;
      proxy.intercept((command) => {
        if (
          command.database !== databaseNames.store ||
          command.name !== 'findAndModify'
        ) {
          return 'forward';
        }
        if (command.collection === 'orders' && filterId(command) === orderId) {
          order = command;
          return 'forward';
        }
        if (order && command.collection === 'inventory') {
          process.kill(pid, 'SIGKILL');
          proxy.intercept(() => 'forward');
          const stock = command;
          const closing = order;
          resolve({ order: closing, stock });
          return 'drop';
        }
        return 'forward';
      });
    },
  );
  return { killed };
}

/** Starts the store again on its port (the same database, through the proxy). */
async function restartStore(): Promise<void> {
  expect(store.running).toBe(false);
  await store.start();
}

const cancel = (orderId: number) =>
  callHttp(api.url, 'DELETE', `/v1/store/orders/${orderId}`, {
    apiKey: customer.apiKey,
  });
const complete = (orderId: number) =>
  callHttp(api.url, 'PATCH', `/v1/store/orders/${orderId}`, {
    apiKey: api.stack.adminApiKey,
    body: { complete: true },
  });

/**
 * Places an order and closes it with `close`, the store killed in the closing's transaction,
 * between the order's write (`set`) and the stock's. The client hears that the store went away
 * (the outcome is unknown to it); neither the order nor the stock has changed. Then starts the
 * store again. Fails if `close` is answered before the store dies.
 */
async function halfClosedOrder(
  close: (orderId: number) => Promise<HttpAnswer>,
  set: { cancelled: true } | { complete: true },
): Promise<{ petId: number; orderId: number }> {
  const { petId, orderId } = await placedOrder();
  const { killed } = await killStoreInTransaction(orderId);
  const answer = close(orderId);
  const commands = await Promise.race([
    killed,
    answer.then((early) => {
      throw new Error(
        `answered before the store died: ${early.status} ${JSON.stringify(early.body)}`,
      );
    }),
  ]);
  await store.exited();
  expect(commands.order.body.update).toMatchObject({ $set: set });
  expect(commands.order.body.txnNumber).toBeDefined();
  expect(commands.stock.body.txnNumber).toEqual(commands.order.body.txnNumber);
  expect(filterId(commands.stock)).toBe(petId);
  const { status, body } = await answer;
  expect({ status, body }).toEqual({
    status: 503,
    body: errorBody('service_unavailable'),
  });

  // The order's write reached the database, but its transaction never committed.
  expect(await orderOf(orderId)).toMatchObject({
    cancelled: false,
    complete: false,
  });
  expect(await inventoryOf(petId)).toMatchObject({
    quantity: STOCK - QUANTITY,
    openOrders: 1,
  });
  await restartStore();
  return { petId, orderId };
}

/**
 * `close` once the transaction the dead store left is gone: MongoDB aborts it after
 * `transactionLifetimeLimitSeconds` (6 s here), and until then it holds the order, so a retry
 * is answered 503.
 */
async function retried(close: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
  let answer = await close();
  const deadline = Date.now() + 15_000;
  while (answer.status === 503 && Date.now() < deadline) answer = await close();
  return answer;
}

describe('the store killed in the transaction of closing an order, then retried', () => {
  it('a retried cancel answers 204 and gives the stock back once', async () => {
    const { petId, orderId } = await halfClosedOrder(cancel, {
      cancelled: true,
    });
    expect(await retried(() => cancel(orderId))).toMatchObject({
      status: 204,
      body: undefined,
    });
    expect(await inventoryOf(petId)).toMatchObject({
      quantity: STOCK,
      openOrders: 0,
    });

    // Again: the same answer, and the stock moves no further.
    expect((await cancel(orderId)).status).toBe(204);
    expect(await inventoryOf(petId)).toMatchObject({
      quantity: STOCK,
      openOrders: 0,
    });
    const item = ok(
      await api.admin.inventory.getInventoryItem({
        params: { petId: String(petId) },
      }),
      200,
    );
    expect(item.body).toEqual({ petId, quantity: STOCK, status: 'available' });
  });

  it('a retried completion answers 200 complete and closes the open order once', async () => {
    const { petId, orderId } = await halfClosedOrder(complete, {
      complete: true,
    });
    expect(await retried(() => complete(orderId))).toMatchObject({
      status: 200,
      body: { id: orderId, petId, quantity: QUANTITY, complete: true },
    });
    expect(await inventoryOf(petId)).toMatchObject({
      quantity: STOCK - QUANTITY,
      openOrders: 0,
    });

    expect((await complete(orderId)).status).toBe(200);
    expect(await inventoryOf(petId)).toMatchObject({
      quantity: STOCK - QUANTITY,
      openOrders: 0,
    });
  });
});
