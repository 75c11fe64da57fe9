import type { RecordedEvent } from '@petstore/contract';
import type { OutboxMessage } from '@petstore/service-kit';
import { describe, expect, onTestFinished } from 'vitest';
import { accounts } from '@petstore/testkit';
import { it, type Stack } from './test-support/stack.js';

const { admin, jane } = accounts;

/** The gateway refuses events until the test ends: they stay in the outbox, to be read. */
function gatewayRefuses(stack: Stack): void {
  stack.gateway.status = 503;
  onTestFinished(() => {
    stack.gateway.status = 202;
  });
}

/** The events of `type` about `data` that the store's outbox holds, read through the driver. */
async function pendingIn(
  stack: Stack,
  type: string,
  data: Record<string, unknown>,
) {
  const messages = await stack.storeDb
    .collection<OutboxMessage<RecordedEvent>>('outbox')
    .find({ topic: 'events', 'payload.type': type })
    .toArray();
  return messages
    .map(({ payload }) => payload)
    .filter((event) =>
      Object.entries(data).every(
        ([field, value]) => event.data[field] === value,
      ),
    );
}

/** Every event the gateway was sent (taken or not) of `type` about `data`, each once. */
function sentEvents(
  stack: Stack,
  type: string,
  data: Record<string, unknown>,
): RecordedEvent[] {
  const sent = new Map<string, RecordedEvent>();
  for (const event of stack.gateway.batches.flatMap(({ events }) => events)) {
    const about = Object.entries(data).every(
      ([field, value]) => event.data[field] === value,
    );
    if (event.type === type && about) sent.set(event.id, event);
  }
  return [...sent.values()];
}

/**
 * The one event of `type` about `data` in the outbox, once the gateway takes events again: sent
 * as it was written, then deleted from the outbox.
 */
async function handedOver(
  stack: Stack,
  type: string,
  data: Record<string, unknown>,
) {
  const pending = await pendingIn(stack, type, data);
  expect(pending).toHaveLength(1);
  const [written] = pending as [RecordedEvent];
  stack.gateway.status = 202;
  await expect
    .poll(() =>
      stack.gateway.accepted().find((event) => event.id === written.id),
    )
    .toEqual(written);
  await expect.poll(() => pendingIn(stack, type, data)).toEqual([]);
  return written;
}

describe('order.created', () => {
  it('is written with the order, and sent to the gateway as the order was answered', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    gatewayRefuses(stack);
    const placed = await stack.placeOrder(jane, { petId, quantity: 2 });
    expect(placed.status).toBe(201);

    const recorded = await handedOver(stack, 'order.created', {
      id: placed.body.id,
    });
    expect(recorded).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/) as string,
      type: 'order.created',
      timestamp: expect.stringMatching(/Z$/) as string,
      accountId: jane.accountId,
      data: placed.body,
    });
  });

  it('is never written for an order refused for want of stock', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    gatewayRefuses(stack);
    const refused = await stack.placeOrder(jane, { petId, quantity: 2 });
    expect(refused.status).toBe(409);
    expect(await pendingIn(stack, 'order.created', { petId })).toEqual([]);
    expect(sentEvents(stack, 'order.created', { petId })).toEqual([]);
  });
});

describe('order.completed', () => {
  it('is written by the update that completes the order, with the order as completed', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const { id } = (await stack.placeOrder(jane, { petId, quantity: 1 })).body;
    gatewayRefuses(stack);
    const path = `/v1/store/orders/${id}`;
    const completed = await stack.store.call('PATCH', path, {
      as: admin,
      body: { complete: true },
    });
    expect(completed.body).toMatchObject({ id, complete: true });

    const recorded = await handedOver(stack, 'order.completed', { id });
    expect(recorded).toEqual({
      id: expect.stringMatching(/^evt_/) as string,
      type: 'order.completed',
      timestamp: expect.stringMatching(/Z$/) as string,
      accountId: jane.accountId,
      data: completed.body,
    });

    // Completing it again changes nothing, and tells nobody.
    const again = await stack.store.call('PATCH', path, {
      as: admin,
      body: { complete: true },
    });
    expect(again.status).toBe(200);
    expect(await pendingIn(stack, 'order.completed', { id })).toEqual([]);
    expect(sentEvents(stack, 'order.completed', { id })).toHaveLength(1);
  });
});

describe('order.cancelled', () => {
  it('is written by the update that cancels the order, with the order as it was', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const placed = (await stack.placeOrder(jane, { petId, quantity: 1 })).body;
    gatewayRefuses(stack);
    // An admin cancels it: the event still names the order's owner.
    const path = `/v1/store/orders/${placed.id}`;
    expect((await stack.store.call('DELETE', path, { as: admin })).status).toBe(
      204,
    );

    const recorded = await handedOver(stack, 'order.cancelled', {
      id: placed.id,
    });
    expect(recorded).toEqual({
      id: expect.stringMatching(/^evt_/) as string,
      type: 'order.cancelled',
      timestamp: expect.stringMatching(/Z$/) as string,
      accountId: jane.accountId,
      data: placed,
    });
  });

  it('is never written when a complete order is refused cancellation', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const { id } = (await stack.placeOrder(jane, { petId, quantity: 1 })).body;
    const path = `/v1/store/orders/${id}`;
    await stack.store.call('PATCH', path, {
      as: admin,
      body: { complete: true },
    });
    gatewayRefuses(stack);
    const refused = await stack.store.call('DELETE', path, { as: jane });
    expect(refused.body).toMatchObject({ status: 409, code: 'order_complete' });
    expect(await pendingIn(stack, 'order.cancelled', { id })).toEqual([]);
    expect(sentEvents(stack, 'order.cancelled', { id })).toEqual([]);
  });
});

describe('inventory.updated', () => {
  it('is written by the update that sets the stock, with the item as PUT answered it', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    await stack.placeOrder(jane, { petId, quantity: 1 });
    gatewayRefuses(stack);
    const set = await stack.store.call('PUT', `/v1/store/inventory/${petId}`, {
      body: { quantity: 0 },
    });
    // At 0 with an open order: pending.
    expect(set.body).toEqual({ petId, quantity: 0, status: 'pending' });

    const recorded = await handedOver(stack, 'inventory.updated', {
      petId,
      quantity: 0,
    });
    expect(recorded).toEqual({
      id: expect.stringMatching(/^evt_/) as string,
      type: 'inventory.updated',
      timestamp: expect.stringMatching(/Z$/) as string,
      data: set.body,
    });
  });

  it("is written for a pet's first stock too, and never for a refused change", async ({
    stack,
  }) => {
    const petId = await stack.pets.createPet();
    gatewayRefuses(stack);
    const path = `/v1/store/inventory/${petId}`;
    expect(
      (await stack.store.call('PUT', path, { as: jane, body: { quantity: 3 } }))
        .status,
    ).toBe(403);
    expect(await pendingIn(stack, 'inventory.updated', { petId })).toEqual([]);
    const set = await stack.store.call('PUT', path, { body: { quantity: 3 } });
    expect(set.body).toEqual({ petId, quantity: 3, status: 'available' });
    const recorded = await handedOver(stack, 'inventory.updated', { petId });
    expect(recorded).toMatchObject({
      type: 'inventory.updated',
      data: set.body,
    });
  });
});

describe('inventory.updated while orders move the stock', () => {
  it('shows each stock setting as its PUT answered it', async ({ stack }) => {
    const petId = await stack.petWithStock(5);
    const path = `/v1/store/inventory/${petId}`;
    const [sets] = await Promise.all([
      Promise.all(
        [0, 2, 0, 1, 0, 3].map((quantity) =>
          stack.store.call('PUT', path, { body: { quantity } }),
        ),
      ),
      Promise.all(
        Array.from({ length: 6 }, () =>
          stack.placeOrder(jane, { petId, quantity: 1 }),
        ),
      ),
    ]);
    // The first setting (by petWithStock) too.
    const answered = [
      { petId, quantity: 5, status: 'available' },
      ...sets.map(({ body }) => body),
    ];
    const shown = () =>
      stack.gateway
        .accepted()
        .filter(
          ({ type, data }) =>
            type === 'inventory.updated' && data.petId === petId,
        )
        .map(({ data }) => data);
    await expect.poll(() => shown().length).toBe(answered.length);
    expect(shown()).toEqual(expect.arrayContaining(answered));
    expect(answered).toEqual(expect.arrayContaining(shown()));
  });
});
