import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/error-bodies.js';
import {
  countOf,
  expectNothingLost,
  expectOnlyAnswers,
} from '../support/ledgers.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { shopForFile } from '../support/shop-for-file.js';
import { prepareWorkload, Workload } from '../support/workload.js';

/** API.md: a service that is down is 503 "within 1 s"; past this the request counts as hung. */
const inTime = () => ({ fetchOptions: { signal: AbortSignal.timeout(1_000) } });

const api = testStackForFile(unthrottled);
const shop = shopForFile(api);
let orderId: number;

beforeAll(async () => {
  const order = await shop.customer.api.orders.placeOrder({
    body: { petId: shop.petId, quantity: 1 },
  });
  if (order.status !== 201 || order.body.id === undefined)
    throw new Error(`order: ${order.status}`);
  orderId = order.body.id;
});
afterEach(async () => {
  // Whatever a test did, the next one starts with the store up.
  if (!api.stack.store.running) await api.stack.store.start();
});

describe('with the store stopped', () => {
  it('answers every store operation 503 service_unavailable at once', async () => {
    await api.stack.store.stop();
    const id = String(orderId);
    const pet = String(shop.petId);
    const answers = {
      listOrders: await shop.customer.api.orders.listOrders({
        query: {},
        ...inTime(),
      }),
      placeOrder: await shop.customer.api.orders.placeOrder({
        body: { petId: shop.petId, quantity: 1 },
        ...inTime(),
      }),
      getOrder: await shop.customer.api.orders.getOrder({
        params: { orderId: id },
        ...inTime(),
      }),
      cancelOrder: await shop.customer.api.orders.cancelOrder({
        params: { orderId: id },
        ...inTime(),
      }),
      updateOrder: await api.admin.orders.updateOrder({
        params: { orderId: id },
        body: { complete: true },
        ...inTime(),
      }),
      listInventory: await shop.customer.api.inventory.listInventory({
        query: {},
        ...inTime(),
      }),
      getInventoryItem: await shop.customer.api.inventory.getInventoryItem({
        params: { petId: pet },
        ...inTime(),
      }),
      setInventory: await api.admin.inventory.setInventory({
        params: { petId: pet },
        body: { quantity: 5 },
        ...inTime(),
      }),
    };
    for (const [operation, answer] of Object.entries(answers)) {
      expect({ operation, status: answer.status }).toEqual({
        operation,
        status: 503,
      });
      expectError(answer, 'service_unavailable');
      expect((answer.body as { message: string }).message).toContain('store');
    }
  });

  it('keeps serving pets, categories, accounts and messages', async () => {
    await api.stack.store.stop();
    const listed = await shop.customer.api.pets.listPets({
      query: {},
      ...inTime(),
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(
      expect.objectContaining({ id: shop.petId }),
    );
    const categories = await shop.customer.api.categories.listCategories({
      query: {},
      ...inTime(),
    });
    expect(categories.status).toBe(200);
    const category = await api.admin.categories.createCategory({
      body: { name: 'Made while the store is down' },
      ...inTime(),
    });
    expect(category.status).toBe(201);
    const categoryId = category.status === 201 ? category.body.id : -1;
    const created = await api.admin.pets.createPet({
      body: { name: 'Spot', categoryId },
      ...inTime(),
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'Spot', status: 'available' },
    });
    expect(await shop.customer.api.accounts.getMe(inTime())).toMatchObject({
      status: 200,
    });
    const signUp = await api.client().accounts.createAccount({
      body: { email: `store-down.${Date.now()}@example.com` },
      ...inTime(),
    });
    expect(signUp.status).toBe(201);
    const message = await shop.customer.api.messages.sendMessage({
      body: { message: 'The store is down' },
      ...inTime(),
    });
    expect(message).toMatchObject({ status: 202, body: { status: 'queued' } });
  });

  it('stays ready itself, and names the store when asked deeply', async () => {
    await api.stack.store.stop();
    const shallow = await fetch(`${api.url}/ready`, {
      signal: AbortSignal.timeout(3_000),
    });
    expect(shallow.status).toBe(200);
    const ready = await fetch(`${api.url}/ready?deep=true`, {
      signal: AbortSignal.timeout(3_000),
    });
    const body = (await ready.json()) as {
      code: string;
      details: { path: string }[];
    };
    expect(ready.status).toBe(503);
    expect(body.code).toBe('service_unavailable');
    expect(body.details.map((part) => part.path)).toEqual(['store']);
  });
});

describe('once the store is started again', () => {
  it('serves store requests without restarting the gateway', async () => {
    await api.stack.store.stop();
    const down = await shop.customer.api.inventory.getInventoryItem({
      params: { petId: String(shop.petId) },
      ...inTime(),
    });
    expect(down.status).toBe(503);
    await api.stack.store.start();

    expect(api.stack.gateway.running).toBe(true);
    const item = await shop.customer.api.inventory.getInventoryItem({
      params: { petId: String(shop.petId) },
      ...inTime(),
    });
    expect(item).toMatchObject({ status: 200, body: { petId: shop.petId } });
    const order = await shop.customer.api.orders.placeOrder({
      body: { petId: shop.petId, quantity: 1 },
      ...inTime(),
    });
    expect(order).toMatchObject({
      status: 201,
      body: { petId: shop.petId, quantity: 1, complete: false },
    });
    const ready = await fetch(`${api.url}/ready?deep=true`, {
      signal: AbortSignal.timeout(3_000),
    });
    expect(ready.status).toBe(200);
  });
});

describe('under load', () => {
  it('loses nothing when the store stops and starts again', async () => {
    const workload = new Workload(api.url, await prepareWorkload(api), {
      guardMs: 5_000,
    });
    await workload.throughOutage(api.stack.store);

    expectOnlyAnswers(workload, ['service_unavailable']);
    // The fault was felt, and the workload did real work on both sides of it.
    expect(countOf(workload, 'order', 503)).toBeGreaterThan(0);
    expect(countOf(workload, 'order', 201)).toBeGreaterThan(0);
    await expectNothingLost(workload, await api.databases());
  });
});
