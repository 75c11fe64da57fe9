import { describe, expect } from 'vitest';
import { accounts } from '@petstore/testkit';
import { it } from '../test-support/stack.js';

const { jane, john } = accounts;

describe('concurrent requests', () => {
  it('never sells more than the stock: 40 orders of 1 against 10 → 10 created, 30 insufficient_stock', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(10);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        stack.placeOrder(i % 2 === 0 ? jane : john, { petId, quantity: 1 }),
      ),
    );

    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(30);
    expect(
      refused.every((answer) => answer.body.code === 'insufficient_stock'),
    ).toBe(true);
    expect(new Set(created.map((answer) => answer.body.id)).size).toBe(10);

    expect(
      await stack.storeDb.collection('orders').countDocuments({ petId }),
    ).toBe(10);
    const item = await stack.store.call('GET', `/v1/store/inventory/${petId}`);
    expect(item.body).toEqual({ petId, quantity: 0, status: 'pending' });
  });

  it('returns stock once when two cancels of one order race, answering both 204', async ({
    stack,
  }) => {
    const { petId, path } = await stack.openOrder(3, 2);

    const statuses = (
      await Promise.all([
        stack.store.call('DELETE', path, { as: jane }),
        stack.store.call('DELETE', path, { as: accounts.admin }),
      ])
    )
      .map((answer) => answer.status)
      .sort();
    // DELETE is idempotent: the one that lost the race answers as the winner did.
    expect(statuses).toEqual([204, 204]);
    expect(await stack.stockOf(petId)).toBe(3);
  });

  it('returns stock once however many cancels race', async ({ stack }) => {
    const petId = await stack.petWithStock(5);
    const placed = await stack.placeOrder(jane, { petId, quantity: 5 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        stack.store.call('DELETE', `/v1/store/orders/${placed.body.id}`, {
          as: jane,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(204));
    expect(await stack.stockOf(petId)).toBe(5);
    const entry = await stack.storeDb
      .collection('inventory')
      .findOne({ _id: petId as never });
    expect(entry?.openOrders).toBe(0);
  });

  it('lets only one of a cancel and a completion racing on one order win', async ({
    stack,
  }) => {
    const { petId, path } = await stack.openOrder(1, 1);
    const [cancel, complete] = await Promise.all([
      stack.store.call('DELETE', path, { as: jane }),
      stack.store.call('PATCH', path, { body: { complete: true } }),
    ]);
    const item = await stack.store.call('GET', `/v1/store/inventory/${petId}`);
    if (cancel.status === 204) {
      expect(complete.status).toBe(404);
      expect(item.body).toEqual({ petId, quantity: 1, status: 'available' });
    } else {
      expect(cancel.status).toBe(409);
      expect(complete.status).toBe(200);
      expect(item.body).toEqual({ petId, quantity: 0, status: 'sold' });
    }
  });
});
