import type { Caller } from '@petstore/service-kit';
import { describe, expect } from 'vitest';
import { accounts } from '@petstore/testkit';
import { it, pagesOf, type Stack } from '../test-support/stack.js';

const { admin, jane } = accounts;

function setStock(
  stack: Stack,
  petId: number,
  quantity: unknown,
  as: Caller = admin,
) {
  return stack.store.call('PUT', `/v1/store/inventory/${petId}`, {
    as,
    body: { quantity },
  });
}

describe('PUT /v1/store/inventory/{petId}', () => {
  it('creates the stock of an existing pet: 200 with its derived status', async ({
    stack,
  }) => {
    const petId = await stack.pets.createPet();
    const answer = await setStock(stack, petId, 12);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ petId, quantity: 12, status: 'available' });
    expect(
      (await stack.store.call('GET', `/v1/store/inventory/${petId}`)).body,
    ).toEqual(answer.body);
  });

  it('replaces the stock count', async ({ stack }) => {
    const petId = await stack.petWithStock(12);
    const answer = await setStock(stack, petId, 3);
    expect(answer.body).toEqual({ petId, quantity: 3, status: 'available' });
  });

  it('makes a pet sold at 0 with no open order, pending at 0 with one', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(2);
    expect((await setStock(stack, petId, 0)).body.status).toBe('sold');

    await setStock(stack, petId, 1);
    await stack.placeOrder(jane, { petId, quantity: 1 });
    expect(
      (await stack.store.call('GET', `/v1/store/inventory/${petId}`)).body,
    ).toEqual({
      petId,
      quantity: 0,
      status: 'pending',
    });
    expect((await setStock(stack, petId, 0)).body.status).toBe('pending');
  });

  it('returns 422 unknown_pet for a pet the pets service does not know, and stores nothing', async ({
    stack,
  }) => {
    const answer = await setStock(stack, 999_998, 5);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'unknown_pet', status: 422 });
    expect(
      (await stack.store.call('GET', '/v1/store/inventory/999998')).status,
    ).toBe(404);
  });

  it('returns 422 unknown_pet for the largest int64, a pet id never issued', async ({
    stack,
  }) => {
    const answer = await stack.store.call(
      'PUT',
      '/v1/store/inventory/9223372036854775807',
      {
        as: admin,
        body: { quantity: 5 },
      },
    );
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'unknown_pet', status: 422 });
  });

  it('returns 403 forbidden for a customer', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const answer = await setStock(stack, petId, 100, jane);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'forbidden', status: 403 });
    expect(await stack.stockOf(petId)).toBe(1);
  });

  it('returns 400 validation_failed for a negative, fractional or missing quantity', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    for (const quantity of [-1, 1.5, '3', undefined, 1_000_001]) {
      const answer = await setStock(stack, petId, quantity);
      expect(answer.status, String(quantity)).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
  });

  it('returns 401 without the internal token, and without an account', async ({
    stack,
  }) => {
    const petId = await stack.pets.createPet();
    for (const as of ['nobody', 'service'] as const) {
      const answer = await stack.store.call(
        'PUT',
        `/v1/store/inventory/${petId}`,
        {
          as,
          body: { quantity: 1 },
        },
      );
      expect(answer.status, as).toBe(401);
    }
  });

  it('returns 503 while the pets service is down, for a stocked pet too', async ({
    stack,
  }) => {
    const stocked = await stack.petWithStock(1);
    const unstocked = await stack.pets.createPet();
    await stack.whilePetsDown(async () => {
      for (const petId of [stocked, unstocked]) {
        const answer = await setStock(stack, petId, 7);
        expect(answer.status).toBe(503);
        expect(answer.body.code).toBe('service_unavailable');
      }
    });
    expect(await stack.stockOf(stocked)).toBe(1);
  });
});

describe('GET /v1/store/inventory/{petId}', () => {
  it('returns 404 not_found for a pet without stock yet', async ({ stack }) => {
    const petId = await stack.pets.createPet();
    const answer = await stack.store.call(
      'GET',
      `/v1/store/inventory/${petId}`,
      { as: jane },
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('answers a customer', async ({ stack }) => {
    const petId = await stack.petWithStock(4);
    const answer = await stack.store.call(
      'GET',
      `/v1/store/inventory/${petId}`,
      { as: jane },
    );
    expect(answer.body).toEqual({ petId, quantity: 4, status: 'available' });
  });

  it('returns 400 for a pet id that is not an int64', async ({ stack }) => {
    const answer = await stack.store.call('GET', '/v1/store/inventory/x1');
    expect(answer.status).toBe(400);
  });
});

describe('GET /v1/store/inventory', () => {
  /** Three pets of each status, made in id order. */
  async function stockOfEveryStatus(stack: Stack) {
    const made: Record<'available' | 'pending' | 'sold', number[]> = {
      available: [],
      pending: [],
      sold: [],
    };
    for (let i = 0; i < 3; i += 1) {
      made.available.push(await stack.petWithStock(2));
      const pending = await stack.petWithStock(1);
      await stack.placeOrder(jane, { petId: pending, quantity: 1 });
      made.pending.push(pending);
      made.sold.push(await stack.petWithStock(0));
    }
    return made;
  }

  async function walk(
    stack: Stack,
    path: string,
  ): Promise<{ ids: number[]; pages: number }> {
    const pages = await pagesOf(stack.store, path, jane);
    return {
      ids: pages.flatMap((page) => page.body.map((item) => item.petId)),
      pages: pages.length,
    };
  }

  it('lists items in pet id order with their derived status, filtered by one or more statuses', async ({
    stack,
  }) => {
    const made = await stockOfEveryStatus(stack);
    const all = [...made.available, ...made.pending, ...made.sold].sort(
      (a, b) => a - b,
    );
    const first = all[0]!;
    const listed = await stack.store.call(
      'GET',
      '/v1/store/inventory?limit=100',
      { as: jane },
    );
    const ours = listed.body.filter(
      (item: { petId: number }) => item.petId >= first,
    );
    expect(ours.map((item: { petId: number }) => item.petId)).toEqual(all);
    for (const item of ours) {
      const expected = Object.entries(made).find(([, ids]) =>
        ids.includes(item.petId),
      )![0];
      expect(item.status).toBe(expected);
    }

    for (const status of ['available', 'pending', 'sold'] as const) {
      const page = await stack.store.call(
        'GET',
        `/v1/store/inventory?status=${status}&limit=100`,
      );
      const ids = page.body.map((item: { petId: number }) => item.petId);
      expect(ids.filter((id: number) => id >= first)).toEqual(made[status]);
      expect(page.body.every((item) => item.status === status)).toBe(true);
    }

    const two = await stack.store.call(
      'GET',
      '/v1/store/inventory?status=pending&status=sold&limit=100',
    );
    expect(
      two.body
        .map((item: { petId: number }) => item.petId)
        .filter((id: number) => id >= first),
    ).toEqual([...made.pending, ...made.sold].sort((a, b) => a - b));
  });

  it('pages with Link rel="next", a status filter included', async ({
    stack,
  }) => {
    const made = await stockOfEveryStatus(stack);
    const pending = await walk(
      stack,
      '/v1/store/inventory?status=pending&limit=2',
    );
    expect(pending.ids.slice(-3)).toEqual(made.pending);
    expect(pending.pages).toBe(Math.ceil(pending.ids.length / 2));

    const everything = await walk(stack, '/v1/store/inventory?limit=4');
    expect(everything.ids).toEqual([...everything.ids].sort((a, b) => a - b));
    expect(new Set(everything.ids).size).toBe(everything.ids.length);
  });

  it('returns 400 for an unknown status', async ({ stack }) => {
    const answer = await stack.store.call(
      'GET',
      '/v1/store/inventory?status=lost',
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('validation_failed');
  });
});
