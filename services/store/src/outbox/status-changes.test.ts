import type { PetStatus } from '@petstore/contract';
import { describe, expect } from 'vitest';
import { accounts } from '@petstore/testkit';
import { it, type Stack } from '../test-support/stack.js';

const { jane } = accounts;

/** The status in the store's inventory now, and the one pets ends up with (polled, bounded). */
async function expectStatus(stack: Stack, petId: number, status: PetStatus) {
  const item = await stack.store.call('GET', `/v1/store/inventory/${petId}`);
  expect(item.body.status).toBe(status);
  await expect
    .poll(() => stack.pets.statusOf(petId), { timeout: 10_000, interval: 50 })
    .toBe(status);
}

describe('the pet status the store derives and pushes to pets', () => {
  it('follows available → pending → sold, and back to available on a cancel, in both services', async ({
    stack,
  }) => {
    const petId = await stack.pets.createPet();
    await stack.store.call('PUT', `/v1/store/inventory/${petId}`, { body: { quantity: 1 } });
    await expectStatus(stack, petId, 'available');

    const first = await stack.placeOrder(jane, { petId, quantity: 1 });
    await expectStatus(stack, petId, 'pending');

    await stack.store.call('PATCH', `/v1/store/orders/${first.body.id}`, {
      body: { complete: true },
    });
    await expectStatus(stack, petId, 'sold');

    await stack.store.call('PUT', `/v1/store/inventory/${petId}`, { body: { quantity: 1 } });
    await expectStatus(stack, petId, 'available');

    const second = await stack.placeOrder(jane, { petId, quantity: 1 });
    await expectStatus(stack, petId, 'pending');

    await stack.store.call('DELETE', `/v1/store/orders/${second.body.id}`, { as: jane });
    await expectStatus(stack, petId, 'available');
  });

  it('sets a pet sold when its stock is set to 0 with no open order', async ({ stack }) => {
    const petId = await stack.petWithStock(3);
    await expectStatus(stack, petId, 'available');
    await stack.store.call('PUT', `/v1/store/inventory/${petId}`, { body: { quantity: 0 } });
    await expectStatus(stack, petId, 'sold');
  });

  it('stays pending while any open order remains at zero stock', async ({ stack }) => {
    const petId = await stack.petWithStock(2);
    const orders = [];
    for (let i = 0; i < 2; i += 1) {
      orders.push(await stack.placeOrder(jane, { petId, quantity: 1 }));
    }
    await expectStatus(stack, petId, 'pending');
    await stack.store.call('PATCH', `/v1/store/orders/${orders[0]!.body.id}`, {
      body: { complete: true },
    });
    await expectStatus(stack, petId, 'pending');
    await stack.store.call('PATCH', `/v1/store/orders/${orders[1]!.body.id}`, {
      body: { complete: true },
    });
    await expectStatus(stack, petId, 'sold');
  });

  it('leaves the status its admin gave a pet that has no stock entry', async ({ stack }) => {
    const untouched = await stack.pets.createPet('pending');
    const stocked = await stack.petWithStock(1);
    await expectStatus(stack, stocked, 'available');
    await expect
      .poll(() => stack.storeDb.collection('outbox').countDocuments({ pending: true }))
      .toBe(0);
    expect(await stack.pets.statusOf(untouched)).toBe('pending');
  });

  it('owes no push once every push is delivered', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    await stack.placeOrder(jane, { petId, quantity: 1 });
    await expectStatus(stack, petId, 'pending');
    await expect
      .poll(() =>
        stack.storeDb.collection('outbox').countDocuments({ _id: petId as never, pending: true }),
      )
      .toBe(0);
  });
});
