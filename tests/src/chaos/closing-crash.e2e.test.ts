import { ServiceProcess } from '@petstore/stack';
import { startMongoJavaServer, type MongoServer } from '@petstore/testkit';
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, stockedPet } from '../support/catalogue.js';
import { databaseNames, DatabaseReader } from '../support/databases.js';
import { errorBody } from '../support/error-bodies.js';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { MongoWireProxy, type WireCommand } from '../support/mongo-wire-proxy.js';
import { startTestStack, unthrottled, type TestStack } from '../support/test-stack.js';

/**
 * Closing an order — a cancel, a completion — is two writes: the order, then its pet's stock.
 * Here the store dies exactly between them, killed with SIGKILL by a proxy between it and the
 * database the moment it sends the second; the stock is then owed the closing. A retry of the
 * request after the store is back must finish it, and so must the sweeper when nobody retries;
 * either way exactly once.
 */

/** The stock each order's pet starts with, and what each order takes. */
const STOCK = 5;
const QUANTITY = 2;

let database: MongoServer;
let proxy: MongoWireProxy;
let api: TestStack;
let reader: DatabaseReader;
let customer: { apiKey: string; accountId: string };
/** The store process now serving (its replacements take its port). */
let store: ServiceProcess;
const replacements: ServiceProcess[] = [];

beforeAll(async () => {
  database = await startMongoJavaServer();
  proxy = await MongoWireProxy.start(database.uri);
  // Every service reaches the database through the proxy; only the store's stock writes are
  // watched. Owed closings are left alone by this store's sweeper (10 minutes): only a retry
  // can finish them here.
  api = await startTestStack({
    ...unthrottled,
    MONGODB_URI: proxy.uri,
    STOCK_HOLD_TIMEOUT_MS: '600000',
  });
  store = api.stack.store;
  reader = await DatabaseReader.connect(database.uri);
  customer = await api.signUp();
});

afterAll(async () => {
  await Promise.all(replacements.map((replacement) => replacement.stop()));
  await reader?.close();
  await api?.[Symbol.asyncDispose]();
  await proxy?.close();
  await database?.stop();
});

interface InventoryEntry {
  quantity: number;
  openOrders: number;
  closed?: Record<string, Date>;
}

interface OrderEntry {
  cancelled: boolean;
  complete: boolean;
  stockOwed?: Date;
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
    await api.client(customer.apiKey).orders.placeOrder({ body: { petId, quantity: QUANTITY } }),
    201,
  );
  return { petId, orderId: Number(placed.body.id) };
}

/** The value a command's filter gives `_id`, as a number. */
function filterId(command: WireCommand): number | undefined {
  const query = command.body.query as Document | undefined;
  const id: unknown = query?._id;
  return typeof id === 'number' || typeof id === 'bigint' ? Number(id) : undefined;
}

/**
 * Arms the proxy: once the store has sent the order's `findAndModify` on `orders`, the next
 * `findAndModify` on `inventory` that marks the order's closing kills the store before it reaches
 * the database. Resolves once armed; `killed` with the two commands, as the store is killed.
 */
async function killStoreBetweenWrites(
  orderId: number,
): Promise<{ killed: Promise<{ order: WireCommand; stock: WireCommand }> }> {
  const pid = await store.pid();
  const killed = new Promise<{ order: WireCommand; stock: WireCommand }>((resolve) => {
    let order: WireCommand | undefined;
    proxy.intercept((command) => {
      if (command.database !== databaseNames.store || command.name !== 'findAndModify') {
        return 'forward';
      }
      if (command.collection === 'orders' && filterId(command) === orderId) {
        order = command;
        return 'forward';
      }
      const query = (command.body.query ?? {}) as Document;
      if (order && command.collection === 'inventory' && `closed.${orderId}` in query) {
        process.kill(pid, 'SIGKILL');
        proxy.intercept(() => 'forward');
        const stock = command;
        const closing = order;
        resolve({ order: closing, stock });
        return 'drop';
      }
      return 'forward';
    });
  });
  return { killed };
}

/**
 * Sends the request with the trap armed; returns what the client got once the store died between
 * the writes. Fails if the request is answered without the trap firing.
 */
async function closeWithCrash(orderId: number, request: () => Promise<HttpAnswer>) {
  const { killed } = await killStoreBetweenWrites(orderId);
  const answer = request();
  const commands = await Promise.race([
    killed,
    answer.then((early) => {
      throw new Error(
        `answered before the store died: ${early.status} ${JSON.stringify(early.body)}`,
      );
    }),
  ]);
  await store.exited();
  return { commands, answer: await answer };
}

/** Starts the store again on its port, with `env` added (the same database, through the proxy). */
async function restartStore(env: Record<string, string> = {}): Promise<void> {
  expect(store.running).toBe(false);
  if (Object.keys(env).length > 0) {
    const { options } = store;
    store = new ServiceProcess({ ...options, env: { ...options.env, ...env } });
    replacements.push(store);
  }
  await store.start();
}

const cancel = (orderId: number) =>
  callHttp(api.url, 'DELETE', `/v1/store/orders/${orderId}`, { apiKey: customer.apiKey });
const complete = (orderId: number) =>
  callHttp(api.url, 'PATCH', `/v1/store/orders/${orderId}`, {
    apiKey: api.stack.adminApiKey,
    body: { complete: true },
  });

/** The client heard that the store went away: the outcome is unknown to it. */
function expectUnavailable(answer: HttpAnswer): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 503,
    body: errorBody('service_unavailable'),
  });
}

/** The store died after the order's write and before the stock's: the stock is owed. */
async function expectHalfDone(
  petId: number,
  orderId: number,
  closed: { cancelled: boolean; complete: boolean },
) {
  expect(await orderOf(orderId)).toMatchObject({
    ...closed,
    stockOwed: expect.any(Date) as unknown,
  });
  const entry = await inventoryOf(petId);
  expect(entry).toMatchObject({ quantity: STOCK - QUANTITY, openOrders: 1 });
  expect(entry?.closed?.[orderId]).toBeUndefined();
}

describe('the store killed between the two writes of closing an order, then retried', () => {
  it('a retried cancel answers 204 and gives the stock back once', async () => {
    const { petId, orderId } = await placedOrder();
    const { commands, answer } = await closeWithCrash(orderId, () => cancel(orderId));
    expect(commands.order.body.update).toMatchObject({ $set: { cancelled: true } });
    expect(filterId(commands.stock)).toBe(petId);
    expectUnavailable(answer);
    await expectHalfDone(petId, orderId, { cancelled: true, complete: false });

    await restartStore();
    const retried = await cancel(orderId);
    expect({ status: retried.status, body: retried.body }).toEqual({
      status: 204,
      body: undefined,
    });
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK, openOrders: 0 });

    // Again: the same answer, and the stock moves no further.
    expect((await cancel(orderId)).status).toBe(204);
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK, openOrders: 0 });
    const item = ok(
      await api.admin.inventory.getInventoryItem({ params: { petId: String(petId) } }),
      200,
    );
    expect(item.body).toEqual({ petId, quantity: STOCK, status: 'available' });
  });

  it('a retried completion answers 200 complete and closes the open order once', async () => {
    const { petId, orderId } = await placedOrder();
    const { commands, answer } = await closeWithCrash(orderId, () => complete(orderId));
    expect(commands.order.body.update).toMatchObject({ $set: { complete: true } });
    expect(filterId(commands.stock)).toBe(petId);
    expectUnavailable(answer);
    await expectHalfDone(petId, orderId, { cancelled: false, complete: true });

    await restartStore();
    const retried = await complete(orderId);
    expect({ status: retried.status, body: retried.body }).toEqual({
      status: 200,
      body: expect.objectContaining({
        id: orderId,
        petId,
        quantity: QUANTITY,
        complete: true,
      }) as unknown,
    });
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK - QUANTITY, openOrders: 0 });

    expect((await complete(orderId)).status).toBe(200);
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK - QUANTITY, openOrders: 0 });
  });
});

describe('the store killed between the two writes of closing an order, and nobody retries', () => {
  /** The sweeper of the store started after the kill finishes closings owed for 500 ms. */
  const fastSweeper = { STOCK_HOLD_SWEEP_MS: '200', STOCK_HOLD_TIMEOUT_MS: '500' };

  /**
   * The sweeper finished the closing once: `stockOwed` cleared (after the stock's update), and
   * then the closing's mark forgotten, after which nothing may move the stock again.
   */
  async function expectSwept(petId: number, orderId: number) {
    await expect.poll(async () => (await orderOf(orderId))?.stockOwed).toBeUndefined();
    await expect
      .poll(async () => (await inventoryOf(petId))?.closed?.[orderId], { timeout: 15_000 })
      .toBeUndefined();
  }

  it('the sweeper gives a cancelled order’s stock back once', async () => {
    const { petId, orderId } = await placedOrder();
    const { answer } = await closeWithCrash(orderId, () => cancel(orderId));
    expectUnavailable(answer);
    await expectHalfDone(petId, orderId, { cancelled: true, complete: false });

    await restartStore(fastSweeper);
    await expectSwept(petId, orderId);
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK, openOrders: 0 });
    // A late retry answers as the first cancel would have, and changes nothing.
    expect((await cancel(orderId)).status).toBe(204);
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK, openOrders: 0 });
  });

  it('the sweeper closes a completed order’s open order once', async () => {
    const { petId, orderId } = await placedOrder();
    const { answer } = await closeWithCrash(orderId, () => complete(orderId));
    expectUnavailable(answer);
    await expectHalfDone(petId, orderId, { cancelled: false, complete: true });

    await restartStore();
    await expectSwept(petId, orderId);
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK - QUANTITY, openOrders: 0 });
    expect((await complete(orderId)).status).toBe(200);
    expect(await inventoryOf(petId)).toMatchObject({ quantity: STOCK - QUANTITY, openOrders: 0 });
  });
});
