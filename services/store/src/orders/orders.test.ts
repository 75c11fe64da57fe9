import { describe, expect } from 'vitest';
import { accounts } from '@petstore/testkit';
import { it, pagesOf } from '../test-support/stack.js';

const { admin, jane, john } = accounts;

describe('POST /v1/store/orders', () => {
  it('answers 201 with the open order and its Location, and takes the quantity from stock', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const before = Date.now();
    const answer = await stack.placeOrder(jane, { petId, quantity: 2 });

    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number) as unknown,
      petId,
      quantity: 2,
      shipDate: expect.any(String) as unknown,
      complete: false,
    });
    expect(answer.headers.get('location')).toBe(
      `/v2/store/orders/${answer.body.id}`,
    );
    // Without a ship date, the order ships when it was placed.
    expect(Date.parse(answer.body.shipDate)).toBeGreaterThanOrEqual(
      before - 1000,
    );
    expect(Date.parse(answer.body.shipDate)).toBeLessThanOrEqual(
      Date.now() + 1000,
    );
    expect(await stack.stockOf(petId)).toBe(3);
  });

  it('places an order through /v2 the same way, its Location read back there', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const answer = await stack.store.call('POST', '/v2/store/orders', {
      as: jane,
      body: { petId, quantity: 1 },
    });

    expect(answer.status).toBe(201);
    const location = answer.headers.get('location') ?? '';
    expect(location).toMatch(/^\/v2\/store\/orders\/\d+$/);
    expect(await stack.store.call('GET', location, { as: jane })).toMatchObject(
      {
        status: 200,
        body: answer.body,
      },
    );
  });

  it('keeps the ship date it is given, in UTC', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const answer = await stack.placeOrder(jane, {
      petId,
      quantity: 1,
      shipDate: '2026-12-01T12:00:00+02:00',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.shipDate).toBe('2026-12-01T10:00:00Z');
  });

  it('gives sequential ids', async ({ stack }) => {
    const petId = await stack.petWithStock(2);
    const first = await stack.placeOrder(jane, { petId, quantity: 1 });
    const second = await stack.placeOrder(jane, { petId, quantity: 1 });
    expect(second.body.id).toBe(first.body.id + 1);
  });

  it('answers 400 naming unknown properties, and takes no stock', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    const answer = await stack.placeOrder(jane, {
      petId,
      quantity: 1,
      complete: true,
      color: 'red',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'validation_failed',
      details: [
        { path: 'body.complete', message: 'unknown parameter' },
        { path: 'body.color', message: 'unknown parameter' },
      ],
    });
    expect(
      await stack.storeDb.collection('orders').countDocuments({ petId }),
    ).toBe(0);
  });

  it('returns 409 insufficient_stock when stock is 0', async ({ stack }) => {
    const petId = await stack.petWithStock(0);
    const answer = await stack.placeOrder(jane, { petId, quantity: 1 });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'insufficient_stock',
      status: 409,
    });
  });

  it('returns 409 insufficient_stock when the order asks for more than the stock', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(2);
    const answer = await stack.placeOrder(jane, { petId, quantity: 3 });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('insufficient_stock');
    expect(await stack.stockOf(petId)).toBe(2);
  });

  it('returns 409 insufficient_stock for a pet that exists but has no stock entry', async ({
    stack,
  }) => {
    const petId = await stack.pets.createPet();
    const answer = await stack.placeOrder(jane, { petId, quantity: 1 });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('insufficient_stock');
  });

  it('gives the stock back when the order cannot be stored', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(3);
    // Ids grow within a store process: the order after this one gets the next id.
    const first = await stack.placeOrder(jane, { petId, quantity: 1 });
    expect(first.status).toBe(201);
    // Something else holds that next id, so storing that order fails, and its transaction with it.
    const orders = stack.storeDb.collection<{ _id: number }>('orders');
    await orders.insertOne({ _id: first.body.id + 1 });

    const answer = await stack.placeOrder(jane, { petId, quantity: 2 });
    expect(answer.status).toBe(500);
    expect(answer.body.code).toBe('internal_error');
    expect(await stack.stockOf(petId)).toBe(2);
    // The next order gets the next id and goes through.
    expect((await stack.placeOrder(jane, { petId, quantity: 2 })).status).toBe(
      201,
    );
  });

  it('returns 422 unknown_pet when the pets service does not know the pet', async ({
    stack,
  }) => {
    const answer = await stack.placeOrder(jane, {
      petId: 999_999,
      quantity: 1,
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'unknown_pet', status: 422 });
  });

  it('returns 400 validation_failed for a quantity below 1, a missing petId or a bad type', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    for (const body of [
      { petId, quantity: 0 },
      { quantity: 1 },
      { petId: 'one', quantity: 1 },
      { petId, quantity: 1.5 },
      { petId, quantity: 1, shipDate: 'tomorrow' },
      { petId: { $gt: 0 }, quantity: 1 },
    ]) {
      const answer = await stack.placeOrder(jane, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
    expect(await stack.stockOf(petId)).toBe(1);
  });

  it('returns 400 invalid_json for a body that is not JSON', async ({
    stack,
  }) => {
    const answer = await stack.store.call('POST', '/v1/store/orders', {
      as: jane,
      body: '{"petId": 1,',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_json');
  });

  it('returns 401 without the internal token, and without an account', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    for (const as of ['nobody', 'service'] as const) {
      const answer = await stack.store.call('POST', '/v1/store/orders', {
        as,
        body: { petId, quantity: 1 },
      });
      expect(answer.status, as).toBe(401);
      expect(answer.body.code).toBe('unauthorized');
    }
    expect(await stack.stockOf(petId)).toBe(1);
  });
});

describe('placing an order while the pets service is down', () => {
  it('answers 503 for every pet, a stocked one included, and takes no stock', async ({
    stack,
  }) => {
    const stocked = await stack.petWithStock(3);
    const unstocked = await stack.pets.createPet();
    await stack.whilePetsDown(async () => {
      for (const petId of [stocked, unstocked]) {
        const refused = await stack.placeOrder(jane, { petId, quantity: 1 });
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({
          code: 'service_unavailable',
          status: 503,
        });
        expect(JSON.stringify(refused.body)).not.toMatch(
          /ECONNREFUSED|fetch failed/,
        );
      }
    });
    expect(await stack.stockOf(stocked)).toBe(3);
  });
});

describe('GET /v1/store/orders/{orderId}', () => {
  it('answers the caller’s own order', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
    const answer = await stack.store.call(
      'GET',
      `/v1/store/orders/${placed.body.id}`,
      {
        as: jane,
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(placed.body);
  });

  it('returns 404 for another account’s order, and the admin sees it', async ({
    stack,
  }) => {
    const { placed, path } = await stack.openOrder(1, 1);

    const asJohn = await stack.store.call('GET', path, { as: john });
    expect(asJohn.status).toBe(404);
    expect(asJohn.body).toMatchObject({ code: 'not_found', status: 404 });

    const asAdmin = await stack.store.call('GET', path, { as: admin });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual(placed.body);
  });

  it('returns 404 for an id never issued and 400 for one that is not an int64', async ({
    stack,
  }) => {
    expect(
      (
        await stack.store.call('GET', '/v1/store/orders/987654321', {
          as: jane,
        })
      ).status,
    ).toBe(404);
    for (const id of ['-1', 'abc', '1.5', '99999999999999999999']) {
      const answer = await stack.store.call('GET', `/v1/store/orders/${id}`, {
        as: jane,
      });
      expect(answer.status, id).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
  });
});

describe('DELETE /v1/store/orders/{orderId}', () => {
  it('cancels an open order: 204, its quantity back in stock, then 404 to reads', async ({
    stack,
  }) => {
    const { petId, path } = await stack.openOrder(4, 3);
    expect(await stack.stockOf(petId)).toBe(1);

    const cancelled = await stack.store.call('DELETE', path, { as: jane });
    expect(cancelled.status).toBe(204);
    expect(cancelled.body).toBeUndefined();
    expect(await stack.stockOf(petId)).toBe(4);

    for (const as of [jane, admin]) {
      expect((await stack.store.call('GET', path, { as })).status).toBe(404);
    }
    // DELETE is idempotent: sent again (a retry after a lost answer), it answers as the first.
    const again = await stack.store.call('DELETE', path, { as: jane });
    expect(again.status).toBe(204);
    expect(await stack.stockOf(petId)).toBe(4);

    const listed = await stack.store.call(
      'GET',
      `/v1/store/orders?petId=${petId}`,
      { as: admin },
    );
    expect(listed.body).toEqual([]);
  });

  it('returns 404 for another account’s order and leaves it open', async ({
    stack,
  }) => {
    const { petId, path } = await stack.openOrder(1, 1);
    expect((await stack.store.call('DELETE', path, { as: john })).status).toBe(
      404,
    );
    expect((await stack.store.call('GET', path, { as: jane })).status).toBe(
      200,
    );
    expect(await stack.stockOf(petId)).toBe(0);
  });

  it('lets the admin cancel any order', async ({ stack }) => {
    const { petId, path } = await stack.openOrder(1, 1);
    expect((await stack.store.call('DELETE', path, { as: admin })).status).toBe(
      204,
    );
    expect(await stack.stockOf(petId)).toBe(1);
  });

  it('returns 409 order_complete for a complete order and keeps its stock taken', async ({
    stack,
  }) => {
    const { petId, path } = await stack.openOrder(1, 1);
    await stack.store.call('PATCH', path, {
      as: admin,
      body: { complete: true },
    });

    const answer = await stack.store.call('DELETE', path, { as: jane });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'order_complete', status: 409 });
    expect(await stack.stockOf(petId)).toBe(0);
  });
});

describe('PATCH /v1/store/orders/{orderId}', () => {
  it('completes an order (admin) and keeps it complete on a repeat', async ({
    stack,
  }) => {
    const { placed, path } = await stack.openOrder(2, 1);

    const completed = await stack.store.call('PATCH', path, {
      body: { complete: true },
    });
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({ ...placed.body, complete: true });

    const repeated = await stack.store.call('PATCH', path, {
      body: { complete: true },
    });
    expect(repeated.status).toBe(200);
    expect(repeated.body.complete).toBe(true);
    expect(
      (await stack.store.call('GET', path, { as: jane })).body.complete,
    ).toBe(true);
  });

  it('answers the order unchanged for an empty body', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
    const answer = await stack.store.call(
      'PATCH',
      `/v1/store/orders/${placed.body.id}`,
      {
        body: {},
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(placed.body);
  });

  it('moves the ship date of an open order', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
    const answer = await stack.store.call(
      'PATCH',
      `/v1/store/orders/${placed.body.id}`,
      {
        body: { shipDate: '2027-01-02T03:04:05-01:00' },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...placed.body,
      shipDate: '2027-01-02T04:04:05Z',
    });
  });

  it('completes and moves the ship date at once', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
    const answer = await stack.store.call(
      'PATCH',
      `/v1/store/orders/${placed.body.id}`,
      {
        body: { complete: true, shipDate: '2027-01-02T00:00:00Z' },
      },
    );
    expect(answer.body).toEqual({
      ...placed.body,
      complete: true,
      shipDate: '2027-01-02T00:00:00Z',
    });
  });

  it('returns 409 order_complete when moving the ship date of a complete order', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, {
      petId,
      quantity: 1,
      shipDate: '2026-12-01T10:00:00Z',
    });
    const path = `/v1/store/orders/${placed.body.id}`;
    await stack.store.call('PATCH', path, { body: { complete: true } });

    const moved = await stack.store.call('PATCH', path, {
      body: { shipDate: '2027-01-01T00:00:00Z' },
    });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('order_complete');

    // The same date is no move: a repeated request still succeeds.
    const same = await stack.store.call('PATCH', path, {
      body: { complete: true, shipDate: '2026-12-01T10:00:00Z' },
    });
    expect(same.status).toBe(200);
  });

  it('returns 403 forbidden for a customer, even on their own order', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
    const answer = await stack.store.call(
      'PATCH',
      `/v1/store/orders/${placed.body.id}`,
      {
        as: jane,
        body: { complete: true },
      },
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'forbidden', status: 403 });
    expect(
      (await stack.store.call('GET', `/v1/store/orders/${placed.body.id}`)).body
        .complete,
    ).toBe(false);
  });

  it('returns 404 for an order that does not exist or was cancelled', async ({
    stack,
  }) => {
    expect(
      (
        await stack.store.call('PATCH', '/v1/store/orders/987654321', {
          body: { complete: true },
        })
      ).status,
    ).toBe(404);
    const { path } = await stack.openOrder(1, 1);
    await stack.store.call('DELETE', path, { as: jane });
    expect(
      (await stack.store.call('PATCH', path, { body: { complete: true } }))
        .status,
    ).toBe(404);
  });

  it('returns 400 for an attempt to reopen an order', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const placed = await stack.placeOrder(jane, { petId, quantity: 1 });
    const answer = await stack.store.call(
      'PATCH',
      `/v1/store/orders/${placed.body.id}`,
      {
        body: { complete: false },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('validation_failed');
  });
});

describe('GET /v1/store/orders', () => {
  it('lists only the caller’s orders; the admin sees every account’s', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(3);
    const janes = await stack.placeOrder(jane, { petId, quantity: 1 });
    const johns = await stack.store.call('POST', '/v1/store/orders', {
      as: john,
      body: { petId, quantity: 1 },
    });

    const forJane = await stack.store.call(
      'GET',
      `/v1/store/orders?petId=${petId}`,
      { as: jane },
    );
    expect(forJane.status).toBe(200);
    expect(forJane.body).toEqual([janes.body]);

    const forJohn = await stack.store.call(
      'GET',
      `/v1/store/orders?petId=${petId}`,
      { as: john },
    );
    expect(forJohn.body).toEqual([johns.body]);

    const forAdmin = await stack.store.call(
      'GET',
      `/v1/store/orders?petId=${petId}`,
    );
    expect(forAdmin.body).toEqual([janes.body, johns.body]);
  });

  it('filters by complete', async ({ stack }) => {
    const petId = await stack.petWithStock(2);
    const open = await stack.placeOrder(jane, { petId, quantity: 1 });
    const done = await stack.placeOrder(jane, { petId, quantity: 1 });
    await stack.store.call('PATCH', `/v1/store/orders/${done.body.id}`, {
      body: { complete: true },
    });

    const complete = await stack.store.call(
      'GET',
      `/v1/store/orders?petId=${petId}&complete=true`,
      { as: jane },
    );
    expect(complete.body.map((order: { id: number }) => order.id)).toEqual([
      done.body.id,
    ]);
    const incomplete = await stack.store.call(
      'GET',
      `/v1/store/orders?petId=${petId}&complete=false`,
      { as: jane },
    );
    expect(incomplete.body.map((order: { id: number }) => order.id)).toEqual([
      open.body.id,
    ]);
  });

  it('pages in id order, following Link rel="next" to the end', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(7);
    const placed: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      placed.push(
        (await stack.placeOrder(jane, { petId, quantity: 1 })).body.id,
      );
    }

    const pages = await pagesOf(
      stack.store,
      `/v1/store/orders?petId=${petId}&limit=3`,
      jane,
    );
    expect(pages).toHaveLength(3);
    for (const page of pages) expect(page.body.length).toBeLessThanOrEqual(3);
    for (const page of pages.slice(0, -1)) {
      expect(page.headers.get('link')).toContain(`petId=${petId}`);
    }
    expect(pages.flatMap((page) => page.body.map((order) => order.id))).toEqual(
      placed,
    );
  });

  it('returns 400 for a limit out of range or a cursor it did not give out', async ({
    stack,
  }) => {
    for (const query of [
      'limit=0',
      'limit=101',
      'cursor=bm90LWEtY3Vyc29y',
      'complete=yes',
    ]) {
      const answer = await stack.store.call(
        'GET',
        `/v1/store/orders?${query}`,
        { as: jane },
      );
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
  });

  it('returns 401 without an account', async ({ stack }) => {
    const answer = await stack.store.call('GET', '/v1/store/orders', {
      as: 'service',
    });
    expect(answer.status).toBe(401);
  });
});
