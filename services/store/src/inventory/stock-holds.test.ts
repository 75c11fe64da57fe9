import { describe, expect } from 'vitest';
import type { OrderDocument } from '../repositories/order-repository.js';
import { accounts } from '@petstore/testkit';
import { it, testLogger, type Stack } from '../test-support/stack.js';
import type { InventoryDocument, StockHold } from '../repositories/inventory-repository.js';
import type { StockDeps } from './closings.js';
import { holdSweeper, settleHold } from './stock-holds.js';

const { jane } = accounts;

function entryOf(stack: Stack, petId: number) {
  return stack.storeDb.collection<InventoryDocument>('inventory').findOne({ _id: petId });
}

/** A hold as a request leaves it when it dies right after taking the stock. */
async function holdLeftBehind(
  stock: StockDeps,
  petId: number,
  quantity: number,
  at: Date,
): Promise<StockHold> {
  const hold = { petId, orderId: await stock.orders.nextId(), quantity, at };
  expect(await stock.inventory.take(hold)).toBeDefined();
  return hold;
}

/** Stores the order a hold was taken for, as its request does before it releases the hold. */
async function storeOrderOf(stock: StockDeps, hold: StockHold): Promise<void> {
  const { petId, quantity, at } = hold;
  await stock.orders.insert(
    stock.orders.toInsert(hold.orderId, {
      ownerId: jane.accountId,
      petId,
      quantity,
      shipDate: at,
      placedAt: at,
    }),
  );
}

/** Runs the sweeper's first sweep (it sweeps at start) and stops it. */
async function sweepOnce(stock: StockDeps, timeoutMs: number): Promise<void> {
  const logger = testLogger('stock-holds');
  const sweeper = holdSweeper(stock, logger, { timeoutMs, sweepIntervalMs: 60_000 });
  sweeper.start();
  await sweeper.stop();
}

const anHourAgo = () => new Date(Date.now() - 60 * 60 * 1000);

describe('placing an order', () => {
  it('leaves no stock hold behind once the order is stored', async ({ stack }) => {
    const petId = await stack.petWithStock(3);
    const placed = await stack.placeOrder(jane, { petId, quantity: 2 });
    expect(placed.status).toBe(201);
    // The answer does not wait for the hold's release, which follows it.
    await expect
      .poll(() => entryOf(stack, petId))
      .toMatchObject({ quantity: 1, heldCount: 0, holds: {} });
  });
});

describe('the hold sweeper', () => {
  it('gives back, once, the stock of an order that was never stored, and retires its id', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const hold = await holdLeftBehind(stack.stock, petId, 2, anHourAgo());
    expect(await stack.stockOf(petId)).toBe(3);

    await sweepOnce(stack.stock, 30_000);
    expect(await stack.stockOf(petId)).toBe(5);
    expect(await entryOf(stack, petId)).toMatchObject({ heldCount: 0, holds: {} });
    // The id is taken by a tombstone, so a late insert of that order can never succeed.
    const orders = stack.storeDb.collection<OrderDocument>('orders');
    expect(await orders.findOne({ _id: hold.orderId })).toMatchObject({
      aborted: true,
      cancelled: true,
    });
    const order = await stack.store.call('GET', `/v1/store/orders/${hold.orderId}`);
    expect(order.status).toBe(404);

    await sweepOnce(stack.stock, 30_000);
    await settleHold(stack.stock, hold, testLogger('stock-holds'));
    expect(await stack.stockOf(petId)).toBe(5);
  });

  it('keeps the stock of an order that was stored, and only drops its hold', async ({ stack }) => {
    const petId = await stack.petWithStock(5);
    const hold = await holdLeftBehind(stack.stock, petId, 2, anHourAgo());
    await storeOrderOf(stack.stock, hold);

    await sweepOnce(stack.stock, 30_000);
    expect(await stack.stockOf(petId)).toBe(3);
    expect(await entryOf(stack, petId)).toMatchObject({ heldCount: 0, holds: {} });
    const order = await stack.store.call('GET', `/v1/store/orders/${hold.orderId}`, { as: jane });
    expect(order).toMatchObject({ status: 200, body: { id: hold.orderId, quantity: 2 } });
  });

  it('leaves a hold younger than its timeout to the request that took it', async ({ stack }) => {
    const petId = await stack.petWithStock(5);
    const hold = await holdLeftBehind(stack.stock, petId, 1, new Date());

    await sweepOnce(stack.stock, 60_000);
    expect(await stack.stockOf(petId)).toBe(4);
    expect(await entryOf(stack, petId)).toMatchObject({
      heldCount: 1,
      holds: { [String(hold.orderId)]: { quantity: 1 } },
    });
    await settleHold(stack.stock, hold, testLogger('stock-holds'));
  });

  it('settles every hold left behind on a pet, each exactly once', async ({ stack }) => {
    const petId = await stack.petWithStock(10);
    const stored = await holdLeftBehind(stack.stock, petId, 1, anHourAgo());
    await storeOrderOf(stack.stock, stored);
    await holdLeftBehind(stack.stock, petId, 2, anHourAgo());
    await holdLeftBehind(stack.stock, petId, 3, anHourAgo());
    expect(await stack.stockOf(petId)).toBe(4);

    await Promise.all([sweepOnce(stack.stock, 30_000), sweepOnce(stack.stock, 30_000)]);
    expect(await stack.stockOf(petId)).toBe(9);
    expect(await entryOf(stack, petId)).toMatchObject({ heldCount: 0, holds: {} });
  });
});
