import { describe, expect } from 'vitest';
import { accounts } from '@petstore/testkit';
import { it, type Stack } from '../test-support/stack.js';
import type { OutboxEntry } from '../repositories/outbox-repository.js';
import { backoffMs } from './outbox-worker.js';

describe('backoffMs', () => {
  it('doubles from the base with each failure', () => {
    expect([0, 1, 2, 3].map((attempts) => backoffMs(attempts, 100, 5000))).toEqual([
      100, 200, 400, 800,
    ]);
  });

  it('stops at the cap, however many failures', () => {
    expect(backoffMs(6, 100, 5000)).toBe(5000);
    expect(backoffMs(1000, 100, 5000)).toBe(5000);
  });
});

describe('the outbox worker', () => {
  const { jane } = accounts;
  const outbox = (stack: Stack) => stack.storeDb.collection<OutboxEntry>('outbox');
  const pollPets = (stack: Stack, petId: number) =>
    expect.poll(() => stack.pets.statusOf(petId), { timeout: 15_000, interval: 50 });

  it('holds a push while pets is down and delivers it when pets is back on the same port, unasked', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    await pollPets(stack, petId).toBe('available');

    await stack.whilePetsDown(async () => {
      const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
      expect(placed.status).toBe(201);
      // The entry is kept and retried with backoff while pets cannot be reached.
      await expect
        .poll(async () => (await outbox(stack).findOne({ _id: petId }))?.attempts ?? 0, {
          timeout: 10_000,
        })
        .toBeGreaterThanOrEqual(2);
    });

    await pollPets(stack, petId).toBe('pending');
    await expect.poll(() => outbox(stack).countDocuments({ _id: petId, pending: true })).toBe(0);
  });

  it('delivers a push recorded before a store restart once both are up again', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(2);
    await pollPets(stack, petId).toBe('available');

    await stack.whilePetsDown(async () => {
      await stack.store.call('PUT', `/v1/store/inventory/${petId}`, { body: { quantity: 0 } });
      const item = await stack.store.call('GET', `/v1/store/inventory/${petId}`);
      expect(item.body.status).toBe('sold');
      await stack.store.stop();
      expect(await outbox(stack).countDocuments({ _id: petId, pending: true })).toBe(1);
    });
    expect(await stack.pets.statusOf(petId)).toBe('available');

    await stack.store.start();
    await pollPets(stack, petId).toBe('sold');
  });

  it('pushes the status as it is at push time, whatever the order of the triggers', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(3);
    await stack.whilePetsDown(async () => {
      await stack.store.call('PUT', `/v1/store/inventory/${petId}`, { body: { quantity: 0 } });
      await stack.store.call('PUT', `/v1/store/inventory/${petId}`, { body: { quantity: 2 } });
      const order = await stack.placeOrder(jane, { petId, quantity: 2 });
      expect(order.status).toBe(201);
      expect(await outbox(stack).countDocuments({ _id: petId, pending: true })).toBe(1);
    });
    await pollPets(stack, petId).toBe('pending');
  });

  it('drops the push of a pet that pets no longer has', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
    await pollPets(stack, petId).toBe('pending');
    await stack.pets.deletePet(petId);

    // Cancelling triggers a push; pets answers 404 and the entry goes, instead of retrying forever.
    const cancelled = await stack.store.call('DELETE', `/v1/store/orders/${placed.body.id}`, {
      as: jane,
    });
    expect(cancelled.status).toBe(204);
    await expect.poll(() => outbox(stack).countDocuments({ _id: petId, pending: true })).toBe(0);

    // The worker goes on with other pets.
    const other = await stack.petWithStock(1);
    await pollPets(stack, other).toBe('available');
  });
});
