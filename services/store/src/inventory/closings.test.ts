import { accounts } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import type { InventoryDocument } from '../repositories/inventory-repository.js';
import type { OrderDocument } from '../repositories/order-repository.js';
import { it, testLogger, type Stack } from '../test-support/stack.js';
import { sweepClosings, type StockDeps } from './closings.js';

const { admin, jane } = accounts;

function entryOf(stack: Stack, petId: number) {
  return stack.storeDb.collection<InventoryDocument>('inventory').findOne({ _id: petId });
}

function orderOf(stack: Stack, orderId: number) {
  return stack.storeDb.collection<OrderDocument>('orders').findOne({ _id: orderId });
}

function sweep(stock: StockDeps, timeoutMs: number) {
  return sweepClosings(stock, timeoutMs, testLogger('closings'));
}

// The first write of a cancel or a completion, alone: what a store killed between its two
// writes leaves behind.
describe('a closing whose store died between its two writes', () => {
  it('is finished by the retried DELETE, which answers 204 as the first would have', async ({
    stack,
  }) => {
    const { petId, orderId } = await stack.openOrder(5, 3);
    expect(await stack.stock.orders.cancelOpen({}, orderId, new Date())).toBeDefined();
    expect((await entryOf(stack, petId))?.quantity).toBe(2);

    const retried = await stack.store.call('DELETE', `/v1/store/orders/${orderId}`, { as: jane });

    expect(retried.status).toBe(204);
    expect(await entryOf(stack, petId)).toMatchObject({ quantity: 5, openOrders: 0 });
    // Sent again, it gives nothing back twice.
    expect(
      (await stack.store.call('DELETE', `/v1/store/orders/${orderId}`, { as: jane })).status,
    ).toBe(204);
    expect(await entryOf(stack, petId)).toMatchObject({ quantity: 5, openOrders: 0 });
  });

  it('is finished by the retried completion, which answers the complete order', async ({
    stack,
  }) => {
    const { petId, orderId } = await stack.openOrder(5, 2);
    expect(await stack.stock.orders.completeOpen(orderId, new Date())).toBeDefined();
    expect((await entryOf(stack, petId))?.openOrders).toBe(1);

    const path = `/v1/store/orders/${orderId}`;
    const retried = await stack.store.call('PATCH', path, { as: admin, body: { complete: true } });

    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: orderId, complete: true });
    expect(await entryOf(stack, petId)).toMatchObject({ quantity: 3, openOrders: 0 });
    await stack.store.call('PATCH', path, { as: admin, body: { complete: true } });
    expect(await entryOf(stack, petId)).toMatchObject({ quantity: 3, openOrders: 0 });
  });

  it('is finished by the sweeper once it is older than the timeout, and only once', async ({
    stack,
  }) => {
    const cancelled = await stack.openOrder(4, 4);
    const completed = await stack.openOrder(1, 1);
    await stack.stock.orders.cancelOpen({}, cancelled.orderId, new Date());
    await stack.stock.orders.completeOpen(completed.orderId, new Date());

    await sweep(stack.stock, 60_000);
    expect((await entryOf(stack, cancelled.petId))?.quantity).toBe(0);

    await sweep(stack.stock, 0);
    await sweep(stack.stock, 0);

    expect(await entryOf(stack, cancelled.petId)).toMatchObject({ quantity: 4, openOrders: 0 });
    expect(await entryOf(stack, completed.petId)).toMatchObject({ quantity: 0, openOrders: 0 });
    const statusOf = async (petId: number) =>
      (await stack.store.call('GET', `/v1/store/inventory/${petId}`)).body.status;
    expect(await statusOf(cancelled.petId)).toBe('available');
    expect(await statusOf(completed.petId)).toBe('sold');
    for (const { orderId } of [cancelled, completed]) {
      expect(await orderOf(stack, orderId)).not.toHaveProperty('stockOwed');
    }
  });
});

describe('closing marks', () => {
  it('stay while their order may be closed again, then are forgotten', async ({ stack }) => {
    const { petId, orderId } = await stack.openOrder(3, 1);
    expect(
      (await stack.store.call('DELETE', `/v1/store/orders/${orderId}`, { as: jane })).status,
    ).toBe(204);
    expect((await entryOf(stack, petId))?.closed).toHaveProperty(String(orderId));

    // Younger than twice the timeout: kept, though the order owes nothing after this sweep.
    await sweep(stack.stock, 60_000);
    expect((await entryOf(stack, petId))?.closed).toHaveProperty(String(orderId));

    await sweep(stack.stock, 0);
    expect(await orderOf(stack, orderId)).not.toHaveProperty('stockOwed');
    const entry = await entryOf(stack, petId);
    expect(entry?.closed).toEqual({});
    expect(entry).toMatchObject({ quantity: 3, openOrders: 0, closedCount: 0 });
  });
});
