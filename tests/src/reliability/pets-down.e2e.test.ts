import type { PetStatus, PetstoreClient } from '@petstore/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok, petInStock } from '../support/catalogue.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { expectError } from '../support/error-bodies.js';
import {
  countOf,
  expectNothingLost,
  expectOnlyAnswers,
} from '../support/ledgers.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { prepareWorkload, Workload } from '../support/workload.js';

/** A request that answers 503 when a service is down does so at once; past this, it hung. */
const inTime = () => ({ fetchOptions: { signal: AbortSignal.timeout(5_000) } });

let db: DatabaseReader;
let customer: PetstoreClient;
let categoryId: number;

const api = testStackForFile({
  ...unthrottled,
  // The store asks pets about every order: none is taken on a confirmation from before the stop.
  PET_CONFIRMED_MS: '0',
  // Retries of a status push stay frequent, so convergence is quick once pets is back.
  OUTBOX_MAX_BACKOFF_MS: '500',
});

beforeAll(async () => {
  db = await api.databases();
  customer = (await api.signUp()).api;
  categoryId = ok(
    await api.admin.categories.createCategory({ body: { name: 'Pets down' } }),
    201,
  ).body.id;
});
afterEach(async () => {
  if (!api.stack.pets.running) await api.stack.pets.start();
});

/** The pet's status as the pets service stores it, read through the driver. */
async function storedStatus(petId: number): Promise<PetStatus | undefined> {
  const pet = await db
    .db(databaseNames.pets)
    .collection<{ _id: number; status: PetStatus }>('pets')
    .findOne({ _id: petId });
  return pet?.status;
}

/** Status pushes the store still has to deliver for the pet. */
function outboxEntries(petId: number): Promise<number> {
  return db
    .db(databaseNames.store)
    .collection('outbox')
    .countDocuments({ topic: 'pet-status', 'payload.petId': petId });
}

/** Waits, asking nothing of the API, until pets stores `status` and no push is owed. */
async function expectConverged(
  petId: number,
  status: PetStatus,
): Promise<void> {
  await expect
    .poll(() => storedStatus(petId), { timeout: 20_000 })
    .toBe(status);
  await expect.poll(() => outboxEntries(petId), { timeout: 20_000 }).toBe(0);
}

describe('with the pets service stopped', () => {
  it('closes orders, and the pet’s status catches up once pets is back', async () => {
    const petId = await petInStock(api.admin, categoryId, 2);
    const orderIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const order = ok(
        await customer.orders.placeOrder({ body: { petId, quantity: 1 } }),
        201,
      );
      orderIds.push(String(order.body.id));
    }
    await expectConverged(petId, 'pending');
    await api.stack.pets.stop();

    for (const orderId of orderIds) {
      const completed = await api.admin.orders.updateOrder({
        params: { orderId },
        body: { complete: true },
        ...inTime(),
      });
      expect(completed.status).toBe(200);
    }
    const item = await customer.inventory.getInventoryItem({
      params: { petId: String(petId) },
      ...inTime(),
    });
    expect(item).toMatchObject({
      status: 200,
      body: { petId, quantity: 0, status: 'sold' },
    });
    // Pets has not heard of it: the push waits in the store's outbox.
    expect(await storedStatus(petId)).toBe('pending');
    expect(await outboxEntries(petId)).toBe(1);

    await api.stack.pets.start();
    await expectConverged(petId, 'sold');
  });

  it('answers 503 for an order or stock it cannot confirm, a deleted pet’s too; writes nothing', async () => {
    const unstocked = ok(
      await api.admin.pets.createPet({
        body: { name: 'Unstocked', categoryId },
      }),
      201,
    ).body.id;
    const deleted = await petInStock(api.admin, categoryId, 3);
    const removal = await api.admin.pets.deletePet({
      params: { petId: String(deleted) },
    });
    expect(removal.status).toBe(204);
    await api.stack.pets.stop();

    for (const petId of [unstocked, deleted]) {
      const order = await customer.orders.placeOrder({
        body: { petId, quantity: 1 },
        ...inTime(),
      });
      expectError(order, 'service_unavailable');
      const stock = await api.admin.inventory.setInventory({
        params: { petId: String(petId) },
        body: { quantity: 3 },
        ...inTime(),
      });
      expectError(stock, 'service_unavailable');
    }
    const listed = await customer.pets.listPets({ query: {}, ...inTime() });
    expectError(listed, 'service_unavailable');

    const store = db.db(databaseNames.store);
    const inventory = store.collection<{ _id: number; quantity: number }>(
      'inventory',
    );
    expect(
      await store.collection('orders').countDocuments({ petId: unstocked }),
    ).toBe(0);
    expect(
      await store.collection('orders').countDocuments({ petId: deleted }),
    ).toBe(0);
    expect(await inventory.countDocuments({ _id: unstocked })).toBe(0);
    expect(await inventory.findOne({ _id: deleted })).toMatchObject({
      quantity: 3,
    });
  });
});

describe('under load', () => {
  it('loses nothing when pets stops and starts again, and every status converges', async () => {
    const setup = await prepareWorkload(api, { stock: 30 });
    const workload = new Workload(api.url, setup, { guardMs: 5_000 });
    await workload.throughOutage(api.stack.pets);

    expectOnlyAnswers(workload, ['service_unavailable']);
    // Orders and reads of pets answered 503 while pets was down, and nothing else did.
    expect(countOf(workload, 'order', 201)).toBeGreaterThan(0);
    expect(countOf(workload, 'read', 503)).toBeGreaterThan(0);
    await expectNothingLost(workload, db);

    // Both sides agree again, with no further request.
    for (const { id } of setup.pets) {
      const item = ok(
        await customer.inventory.getInventoryItem({
          params: { petId: String(id) },
        }),
        200,
      );
      await expectConverged(id, item.body.status);
    }
  });
});
