import type { PetStatus, PetstoreClient } from '@petstore/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok, petInStock } from '../support/catalogue.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { expectError } from '../support/error-bodies.js';
import { countOf, expectNothingLost, expectOnlyAnswers } from '../support/ledgers.js';
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
  // Retries of a status push stay frequent, so convergence is quick once pets is back.
  OUTBOX_MAX_BACKOFF_MS: '500',
});

beforeAll(async () => {
  db = await api.databases();
  customer = (await api.signUp()).api;
  categoryId = ok(await api.admin.categories.createCategory({ body: { name: 'Pets down' } }), 201)
    .body.id;
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
async function expectConverged(petId: number, status: PetStatus): Promise<void> {
  await expect.poll(() => storedStatus(petId), { timeout: 20_000 }).toBe(status);
  await expect.poll(() => outboxEntries(petId), { timeout: 20_000 }).toBe(0);
}

describe('with the pets service stopped', () => {
  it('takes orders for stocked pets, and the pet’s status catches up once pets is back', async () => {
    const petId = await petInStock(api.admin, categoryId, 2);
    await expectConverged(petId, 'available');
    await api.stack.pets.stop();

    for (let i = 0; i < 2; i++) {
      const order = await customer.orders.placeOrder({ body: { petId, quantity: 1 }, ...inTime() });
      expect(order).toMatchObject({ status: 201, body: { petId, quantity: 1, complete: false } });
    }
    const item = await customer.inventory.getInventoryItem({
      params: { petId: String(petId) },
      ...inTime(),
    });
    expect(item).toMatchObject({ status: 200, body: { petId, quantity: 0, status: 'pending' } });
    // Pets has not heard of it: the push waits in the store's outbox.
    expect(await storedStatus(petId)).toBe('available');
    expect(await outboxEntries(petId)).toBe(1);

    await api.stack.pets.start();
    await expectConverged(petId, 'pending');
    const listed = await customer.pets.listPets({
      query: { categoryId: String(categoryId) },
      ...inTime(),
    });
    expect(listed.body).toContainEqual(expect.objectContaining({ id: petId, status: 'pending' }));
  });

  it('ends with the status of the last change when several happened while pets was down', async () => {
    const petId = await petInStock(api.admin, categoryId, 2);
    await expectConverged(petId, 'available');
    await api.stack.pets.stop();

    const first = await customer.orders.placeOrder({ body: { petId, quantity: 1 }, ...inTime() });
    const second = await customer.orders.placeOrder({ body: { petId, quantity: 1 }, ...inTime() });
    expect([first.status, second.status]).toEqual([201, 201]);
    const firstId = String(first.status === 201 ? first.body.id : -1);
    const secondId = String(second.status === 201 ? second.body.id : -1);
    // While pets is down: pending (both ordered), sold (both complete), available (restocked),
    // and pending again (ordered again); pets must end with the last.
    for (const orderId of [firstId, secondId]) {
      const completed = await api.admin.orders.updateOrder({
        params: { orderId },
        body: { complete: true },
        ...inTime(),
      });
      expect(completed.status).toBe(200);
    }
    expect(
      await customer.inventory.getInventoryItem({ params: { petId: String(petId) }, ...inTime() }),
    ).toMatchObject({ status: 200, body: { quantity: 0, status: 'sold' } });
    const restocked = await api.admin.inventory.setInventory({
      params: { petId: String(petId) },
      body: { quantity: 1 },
      ...inTime(),
    });
    expect(restocked).toMatchObject({ status: 200, body: { status: 'available' } });
    const third = await customer.orders.placeOrder({ body: { petId, quantity: 1 }, ...inTime() });
    expect(third.status).toBe(201);
    expect(await storedStatus(petId)).toBe('available');

    await api.stack.pets.start();
    await expectConverged(petId, 'pending');
  });

  it('answers 503 for a pet the store has no stock of, and writes nothing', async () => {
    const pet = ok(
      await api.admin.pets.createPet({ body: { name: 'Unstocked', categoryId } }),
      201,
    );
    const petId = pet.body.id;
    await api.stack.pets.stop();

    const order = await customer.orders.placeOrder({ body: { petId, quantity: 1 }, ...inTime() });
    expectError(order, 'service_unavailable');
    const stock = await api.admin.inventory.setInventory({
      params: { petId: String(petId) },
      body: { quantity: 3 },
      ...inTime(),
    });
    expectError(stock, 'service_unavailable');
    const listed = await customer.pets.listPets({ query: {}, ...inTime() });
    expectError(listed, 'service_unavailable');

    const store = db.db(databaseNames.store);
    expect(await store.collection('orders').countDocuments({ petId })).toBe(0);
    expect(
      await store.collection<{ _id: number }>('inventory').countDocuments({ _id: petId }),
    ).toBe(0);
    expect(await outboxEntries(petId)).toBe(0);
  });
});

describe('under load', () => {
  it('loses nothing when pets stops and starts again, and every status converges', async () => {
    const setup = await prepareWorkload(api, { stock: 30 });
    const workload = new Workload(api.url, setup, { guardMs: 5_000 });
    await workload.throughOutage(api.stack.pets);

    expectOnlyAnswers(workload, ['service_unavailable']);
    // Orders went on while pets was down (the store knows its stocked pets); reads of pets did not.
    expect(countOf(workload, 'order', 201)).toBeGreaterThan(0);
    expect(countOf(workload, 'read', 503)).toBeGreaterThan(0);
    await expectNothingLost(workload, db);

    // Both sides agree again, with no further request.
    for (const { id } of setup.pets) {
      const item = ok(
        await customer.inventory.getInventoryItem({ params: { petId: String(id) } }),
        200,
      );
      await expectConverged(id, item.body.status);
    }
  });
});
