import { afterEach, describe, expect, it, vi } from 'vitest';
import { callHttp } from '@petstore/testkit';
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

/**
 * A service gives up on its database after 2 s (service-kit's `connectMongo`), and a store
 * operation may wait for pets and then for its own database: past this, a request has hung.
 */
const GUARD_MS = 8_000;
const inTime = () => ({
  fetchOptions: { signal: AbortSignal.timeout(GUARD_MS) },
});

const api = testStackForFile(unthrottled);
const shop = shopForFile(api);
afterEach(async () => {
  // Whatever a test did, the next one starts with the database up and every service ready.
  await api.stack.database.start();
  await everythingReady();
});

/** `/ready?deep=true`'s status and body: the gateway's database, and pets and store too. */
async function ready(): Promise<{ status: number; body: unknown }> {
  const { status, body } = await callHttp(api.url, 'GET', '/ready?deep=true', {
    signal: AbortSignal.timeout(GUARD_MS),
  });
  return { status, body };
}

/** Polls `/ready` until every part answers again. */
async function everythingReady(): Promise<void> {
  await expect
    .poll(ready, { timeout: 30_000 })
    .toEqual({ status: 200, body: { status: 'ok' } });
}

describe('with the database stopped', () => {
  it('answers 503 service_unavailable from every service, without hanging', async () => {
    // Keys are cached by the gateway, so the customer's requests reach the services.
    expect((await shop.customer.api.accounts.getMe()).status).toBe(200);
    await api.stack.database.stop();

    // All at once: each waits for its database up to the driver's server selection timeout.
    const calls = {
      listPets: shop.customer.api.pets.listPets({ query: {}, ...inTime() }),
      listCategories: shop.customer.api.categories.listCategories({
        query: {},
        ...inTime(),
      }),
      createPet: api.admin.pets.createPet({
        body: { name: 'Spot', categoryId: 1 },
        ...inTime(),
      }),
      listOrders: shop.customer.api.orders.listOrders({
        query: {},
        ...inTime(),
      }),
      placeOrder: shop.customer.api.orders.placeOrder({
        body: { petId: shop.petId, quantity: 1 },
        ...inTime(),
      }),
      getInventoryItem: shop.customer.api.inventory.getInventoryItem({
        params: { petId: String(shop.petId) },
        ...inTime(),
      }),
      getMe: shop.customer.api.accounts.getMe(inTime()),
      createAccount: api.client().accounts.createAccount({
        body: { email: `database-down.${Date.now()}@example.com` },
        ...inTime(),
      }),
      sendMessage: shop.customer.api.messages.sendMessage({
        body: { message: 'The database is down' },
        ...inTime(),
      }),
    };
    const answers = await Promise.all(
      Object.entries(calls).map(async ([operation, call]) => ({
        operation,
        answer: await call,
      })),
    );
    for (const { operation, answer } of answers) {
      expect({ operation, status: answer.status }).toEqual({
        operation,
        status: 503,
      });
      expectError(answer, 'service_unavailable');
    }
    // A key the gateway has not seen yet cannot be checked either: 503, not 401.
    const unknownKey = await callHttp(api.url, 'GET', '/v1/pets', {
      apiKey: `psk_${'x'.repeat(40)}`,
      signal: AbortSignal.timeout(GUARD_MS),
    });
    expectError(unknownKey, 'service_unavailable');

    // The processes stay up, waiting for their database.
    expect([
      api.stack.pets.running,
      api.stack.store.running,
      api.stack.gateway.running,
    ]).toEqual([true, true, true]);
    const health = await fetch(`${api.url}/health`, {
      signal: AbortSignal.timeout(GUARD_MS),
    });
    expect(health.status).toBe(200);
  });

  it('says 503 on /ready?deep=true, naming every part that is down', async () => {
    await api.stack.database.stop();
    const answer = await callHttp(api.url, 'GET', '/ready?deep=true', {
      signal: AbortSignal.timeout(GUARD_MS),
    });
    expectError(answer, 'service_unavailable');
    const parts = (answer.body as { details: { path: string }[] }).details.map(
      (part) => part.path,
    );
    expect(parts.sort()).toEqual(['database', 'pets', 'store']);
  });
});

describe('once the database is back', () => {
  it('serves every service again without restarting anything', async () => {
    await api.stack.database.stop();
    expect(
      (await shop.customer.api.pets.listPets({ query: {}, ...inTime() }))
        .status,
    ).toBe(503);
    await api.stack.database.start();

    await everythingReady();
    await expect
      .poll(
        async () =>
          (await shop.customer.api.pets.listPets({ query: {}, ...inTime() }))
            .status,
        {
          timeout: 30_000,
        },
      )
      .toBe(200);
    const untilBack = { timeout: 30_000, interval: 100 };
    const order = await vi.waitFor(async () => {
      const res = await shop.customer.api.orders.placeOrder({
        body: { petId: shop.petId, quantity: 1 },
        ...inTime(),
      });
      expect(res.status).toBe(201);
      return res;
    }, untilBack);
    expect(order).toMatchObject({
      status: 201,
      body: { petId: shop.petId, quantity: 1 },
    });
    await vi.waitFor(async () => {
      const res = await api.client().accounts.createAccount({
        body: { email: `database-back.${Date.now()}@example.com` },
        ...inTime(),
      });
      expect(res.status).toBe(201);
    }, untilBack);
    const message = await shop.customer.api.messages.sendMessage({
      body: { message: 'The database is back' },
      ...inTime(),
    });
    expect(message.status).toBe(202);
  });
});

describe('under load', () => {
  it('loses nothing when the database stops and starts again', async () => {
    const workload = new Workload(api.url, await prepareWorkload(api), {
      guardMs: GUARD_MS,
    });
    await workload.throughOutage(
      {
        stop: () => api.stack.database.stop(),
        start: async () => {
          await api.stack.database.start();
          await everythingReady();
        },
      },
      { during: 16 },
    );

    expectOnlyAnswers(workload, ['service_unavailable']);
    expect(countOf(workload, 'order', 503)).toBeGreaterThan(0);
    expect(countOf(workload, 'order', 201)).toBeGreaterThan(0);
    // A database that stops while a write is in flight can apply it and lose the reply with
    // the connection: the service cannot know, and answers 503. Such a write may be there —
    // whole, its stock taken for it — or not; anything partial is still a failure.
    await expectNothingLost(workload, await api.databases(), {
      unknown: ['service_unavailable', 'upstream_timeout'],
    });
  });
});
