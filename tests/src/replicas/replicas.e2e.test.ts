import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  contract,
  contractOperations,
  createPetstoreClient,
} from '@petstore/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { fillPath } from '../support/fill-path.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { startTestStack, unthrottled } from '../support/test-stack.js';

/** API.md, "Replicas": what holds whatever the number of processes of each service. */
const REVOCATION_BOUND_MS = 1_000;

const api = testStackForFile(
  { ...unthrottled, PETS_TIMEOUT_MS: '500' },
  { replicas: { gateway: 2, pets: 2, store: 2 } },
);
let gateways: [string, string];

beforeAll(() => {
  const [first, second] = api.stack.replicas.gateway.map(
    (gateway) => gateway.url,
  );
  if (!first || !second) throw new Error('two gateways expected');
  gateways = [first, second];
});

/** How many times each message's delivery was logged, by message id, on either gateway. */
function messageDeliveries(): Map<string, number> {
  const deliveries = new Map<string, number>();
  for (const gateway of ['gateway-1', 'gateway-2']) {
    for (const line of api.logsOf(gateway)) {
      if (!line.includes('"msg":"message delivered"')) continue;
      const { messageId } = JSON.parse(line) as { messageId: string };
      deliveries.set(messageId, (deliveries.get(messageId) ?? 0) + 1);
    }
  }
  return deliveries;
}

/** A typed client of the gateway `index`. */
const through = (index: number, apiKey?: string) =>
  createPetstoreClient({ baseUrl: gateways[index % 2]!, apiKey });

describe('two gateways, two pets and two stores on one database', () => {
  it.each([1, 2, 3])(
    'round %i: 40 concurrent orders for a stock of 10 give exactly 10 orders with distinct ids',
    async () => {
      const { petId } = await stockedPet(api.admin, 10);
      const customers = await Promise.all(
        [0, 1].map(async (index) => {
          const { apiKey } = await api.signUp();
          return through(index, apiKey);
        }),
      );
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          customers[index % 2]!.orders.placeOrder({
            body: { petId, quantity: 1 },
          }),
        ),
      );
      const placed = answers.filter((answer) => answer.status === 201);
      expect(placed).toHaveLength(10);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(
        30,
      );
      const ids = placed.map((answer) =>
        answer.status === 201 ? answer.body.id : undefined,
      );
      expect(new Set(ids).size).toBe(10);
      const stock = ok(
        await api.admin.inventory.getInventoryItem({
          params: { petId: String(petId) },
        }),
        200,
      );
      expect(stock.body.quantity).toBe(0);
    },
  );

  it('creates 40 pets and 20 categories at once, every one with an id of its own', async () => {
    const admins = [0, 1].map((index) => through(index, api.stack.adminApiKey));
    const stamp = Date.now();
    const categories = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        admins[index % 2]!.categories.createCategory({
          body: { name: `Replica category ${stamp} ${index}` },
        }),
      ),
    );
    expect(categories.map((answer) => answer.status)).toEqual(
      Array(20).fill(201),
    );
    const categoryIds = categories.map((answer) => ok(answer, 201).body.id);
    expect(new Set(categoryIds).size).toBe(20);

    const pets = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        admins[index % 2]!.pets.createPet({
          body: { name: `Pet ${index}`, categoryId: categoryIds[index % 20]! },
        }),
      ),
    );
    expect(pets.map((answer) => answer.status)).toEqual(Array(40).fill(201));
    expect(new Set(pets.map((answer) => ok(answer, 201).body.id)).size).toBe(
      40,
    );
  });

  it('refuses a key revoked on one gateway on the other: at once for keys and messages, within 1 s for every operation', async () => {
    const { apiKey } = await api.signUp();
    // The second gateway knows the key (it is in its cache) before the revocation.
    expect((await through(1, apiKey).accounts.getMe()).status).toBe(200);
    expect((await through(1, apiKey).pets.listPets({ query: {} })).status).toBe(
      200,
    );
    const keys = ok(await through(0, apiKey).accounts.listKeys(), 200);
    const [key] = keys.body;
    ok(
      await through(0, apiKey).accounts.revokeKey({
        params: { keyId: key!.id },
      }),
      204,
    );

    const onSecond = through(1, apiKey);
    expect((await onSecond.accounts.createKey()).status).toBe(401);
    expect(
      (await onSecond.messages.sendMessage({ body: { message: 'after' } }))
        .status,
    ).toBe(401);

    await sleep(REVOCATION_BOUND_MS);
    const params = {
      petId: 1,
      categoryId: 1,
      orderId: 1,
      keyId: 'key_x',
      messageId: 'msg_x',
      webhookId: 'wh_x',
      deliveryId: 'whd_x',
    };
    for (const { route, metadata } of contractOperations(contract.v2)) {
      if (metadata.auth !== 'key') continue;
      for (const gateway of gateways) {
        const answer = await callHttp(
          gateway,
          route.method,
          fillPath(route.path, params),
          {
            apiKey,
          },
        );
        expect(
          answer.status,
          `${route.method} ${route.path} on ${gateway}`,
        ).toBe(401);
      }
    }
  });

  it('delivers 60 messages posted across both gateways exactly once each', async () => {
    const { apiKey } = await api.signUp();
    const posted = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        through(index, apiKey).messages.sendMessage({
          body: { message: `message ${index}` },
        }),
      ),
    );
    const ids = posted.map((answer) => ok(answer, 202).body.id);
    for (const id of ids) {
      await expect
        .poll(async () => {
          const answer = await through(0, apiKey).messages.getMessage({
            params: { messageId: id },
          });
          return answer.status === 200 ? answer.body.status : answer.status;
        })
        .toBe('delivered');
    }
    const deliveries = messageDeliveries();
    for (const id of ids) expect(deliveries.get(id), id).toBe(1);
  });

  it('delivers a message sent again and again with one Idempotency-Key across both gateways once', async () => {
    const { apiKey } = await api.signUp();
    const headers = { 'idempotency-key': randomUUID() };
    const send = (index: number) =>
      through(index, apiKey).messages.sendMessage({
        headers,
        body: { message: 'sent once' },
      });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => send(index)),
    );
    const ids = new Set(answers.map((answer) => ok(answer, 202).body.id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    await expect
      .poll(async () => {
        const answer = await through(0, apiKey).messages.getMessage({
          params: { messageId: id! },
        });
        return answer.status === 200 ? answer.body.status : answer.status;
      })
      .toBe('delivered');
    // A retry after the delivery answers the first 202 again.
    expect(ok(await send(1), 202).body).toMatchObject({ id, status: 'queued' });
    expect(messageDeliveries().get(id!)).toBe(1);
  });

  it('keeps Pet.status equal to the derived status when a stalled pets replica resumes with old pushes', async () => {
    const { petId } = await stockedPet(api.admin, 1);
    const customer = through(0, (await api.signUp()).apiKey);
    const pets = (await api.databases()).db('petstore_pets').collection('pets');
    const statusHeld = async () =>
      (await pets.findOne({ _id: petId as never }))?.status as unknown;
    const stalled = api.stack.replicas.pets[0]!;
    const pushesSeen = () =>
      api
        .logsOf(stalled.name)
        .filter((line) => line.includes(`/internal/pets/${petId}/status`))
        .length;
    const before = pushesSeen();
    await stalled.signal('SIGSTOP');
    try {
      // Every order and cancel moves the status between pending and available; a push that
      // goes to the stalled replica first waits there, times out, and the other replica takes it.
      for (let round = 0; round < 4; round++) {
        const order = ok(
          await customer.orders.placeOrder({ body: { petId, quantity: 1 } }),
          201,
        );
        ok(
          await customer.orders.cancelOrder({
            params: { orderId: String(order.body.id) },
          }),
          204,
        );
      }
      // Last, sold: the one status none of the held pushes carries.
      const order = ok(
        await customer.orders.placeOrder({ body: { petId, quantity: 1 } }),
        201,
      );
      ok(
        await api.admin.orders.updateOrder({
          params: { orderId: String(order.body.id) },
          body: { complete: true },
        }),
        200,
      );
      await expect.poll(statusHeld, { timeout: 20_000 }).toBe('sold');
    } finally {
      await stalled.signal('SIGCONT');
    }
    // The stalled replica now answers the pushes it held, each older than the last one kept.
    await expect.poll(pushesSeen, { timeout: 20_000 }).toBeGreaterThan(before);
    await expect.poll(() => api.stack.replicas.pets[0]!.running).toBe(true);
    const derived = ok(
      await api.admin.inventory.getInventoryItem({
        params: { petId: String(petId) },
      }),
      200,
    ).body.status;
    expect(derived).toBe('sold');
    expect(await statusHeld()).toBe('sold');
  });

  it('keeps /ready at 200 on both gateways while every store is stalled', async () => {
    const stores = api.stack.replicas.store;
    for (const store of stores) await store.signal('SIGSTOP');
    try {
      for (const gateway of gateways) {
        expect((await fetch(`${gateway}/ready`)).status).toBe(200);
        expect((await fetch(`${gateway}/ready?deep=true`)).status).toBe(503);
      }
    } finally {
      for (const store of stores) await store.signal('SIGCONT');
    }
  });
});

describe('one key through two gateways', () => {
  it('is held to one rate limit: at most 1.3 times what one gateway accepts', async () => {
    await using limited = await startTestStack(
      {
        // One token every 1000 s: what a gateway accepts is the burst.
        RATE_LIMIT_PER_SECOND: '0.001',
        RATE_LIMIT_BURST: '20',
      },
      { replicas: { gateway: 2 } },
    );
    const [first, second] = limited.stack.replicas.gateway.map(
      (gateway) => gateway.url,
    );
    const { apiKey } = await limited.signUp();
    const statuses = [];
    for (let index = 0; index < 60; index++) {
      const gateway = index % 2 === 0 ? first! : second!;
      statuses.push(
        (await callHttp(gateway, 'GET', '/v1/accounts/me', { apiKey })).status,
      );
    }
    const accepted = statuses.filter((status) => status === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThanOrEqual(20 * 1.3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      60 - accepted,
    );
  });
});
