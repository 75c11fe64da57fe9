import { randomUUID } from 'node:crypto';
import { requestHashOf, type IdempotencyRecord } from '@petstore/service-kit';
import { accounts, type Account } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import { it, type Stack } from '../test-support/stack.js';

describe('Idempotency-Key on POST /v1/store/orders', () => {
  const { jane, john } = accounts;
  const keys = (stack: Stack) =>
    stack.storeDb.collection<IdempotencyRecord>('idempotency_keys');

  function place(stack: Stack, key: string, body: unknown, as: Account = jane) {
    return stack.placeOrder(as, body, { 'idempotency-key': key });
  }

  it('creates one order for 15 concurrent requests with one key, and answers each 201 with its id', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(20);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        place(stack, key, { petId, quantity: 2 }),
      ),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(15).fill(201));
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    for (const answer of answers) {
      expect(answer.headers.get('location')).toBe(`/v2/store/orders/${id}`);
    }
    expect(
      await stack.storeDb.collection('orders').countDocuments({ petId }),
    ).toBe(1);
    expect(await stack.stockOf(petId)).toBe(18);
  });

  it('answers a retry with the first response and creates nothing', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const key = randomUUID();
    const body = { petId, quantity: 1, shipDate: '2026-12-01T10:00:00Z' };
    const first = await place(stack, key, body);
    const retry = await place(stack, key, body);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    // The same instant written with an offset is the same request.
    const sameInstant = await place(stack, key, {
      ...body,
      shipDate: '2026-12-01T11:00:00+01:00',
    });
    expect(sameInstant.body).toEqual(first.body);
    expect(await stack.stockOf(petId)).toBe(4);
  });

  it('returns 422 idempotency_key_reused for the same key with another body', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const key = randomUUID();
    await place(stack, key, { petId, quantity: 1 });
    const reused = await place(stack, key, { petId, quantity: 2 });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({
      code: 'idempotency_key_reused',
      status: 422,
    });
    expect(await stack.stockOf(petId)).toBe(4);
  });

  it('keeps the keys of different accounts apart', async ({ stack }) => {
    const petId = await stack.petWithStock(5);
    const key = randomUUID();
    const forJane = await place(stack, key, { petId, quantity: 1 }, jane);
    const forJohn = await place(stack, key, { petId, quantity: 1 }, john);
    expect(forJohn.status).toBe(201);
    expect(forJohn.body.id).not.toBe(forJane.body.id);
    expect(await stack.stockOf(petId)).toBe(3);
  });

  it('remembers the key 48 hours, stored under the account with the body hash', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    const key = randomUUID();
    const before = Date.now();
    const placed = await place(stack, key, { petId, quantity: 1 });
    const record = await keys(stack).findOne({
      _id: `${jane.accountId}:${key}`,
    });
    expect(record).toMatchObject({
      requestHash: requestHashOf({
        accountId: jane.accountId,
        key,
        operation: 'POST /store/orders',
        body: { petId, quantity: 1 },
      }),
      response: { status: 201, body: placed.body },
    });
    const hours = (record!.expiresAt.getTime() - before) / 3_600_000;
    expect(hours).toBeGreaterThanOrEqual(48);
    expect(hours).toBeLessThan(48.1);
  });

  it('remembers a refusal for want of stock: a retry gets the same 409, even once stock is back', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(0);
    const key = randomUUID();
    const refused = await place(stack, key, { petId, quantity: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('insufficient_stock');

    await stack.store.call('PUT', `/v1/store/inventory/${petId}`, {
      body: { quantity: 1 },
    });
    const retried = await place(stack, key, { petId, quantity: 1 });
    expect(retried.status).toBe(409);
    expect(retried.body).toMatchObject({
      code: 'insufficient_stock',
      message: refused.body.message,
    });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await stack.stockOf(petId)).toBe(1);
  });

  it('answers one outcome to both copies when the copy sent first arrives second', async ({
    stack,
  }) => {
    // The retry arrives first and finds no stock; stock comes back; then the first copy arrives.
    const petId = await stack.petWithStock(0);
    const key = randomUUID();
    const retry = await place(stack, key, { petId, quantity: 1 });
    await stack.store.call('PUT', `/v1/store/inventory/${petId}`, {
      body: { quantity: 3 },
    });
    const late = await place(stack, key, { petId, quantity: 1 });

    expect([retry.status, late.status]).toEqual([409, 409]);
    expect(late.body.message).toBe(retry.body.message);
    expect(
      await stack.storeDb.collection('orders').countDocuments({ petId }),
    ).toBe(0);
    expect(await stack.stockOf(petId)).toBe(3);
  });

  it('remembers a refusal for an unknown pet', async ({ stack }) => {
    const key = randomUUID();
    const body = { petId: 999_999, quantity: 1 };
    const refused = await place(stack, key, body);
    expect(refused.body).toMatchObject({ status: 422, code: 'unknown_pet' });
    const again = await place(stack, key, body);
    expect(again.body).toMatchObject({ status: 422, code: 'unknown_pet' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers the stored order while pets is down, and places nothing new', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(5);
    const key = randomUUID();
    const first = await place(stack, key, { petId, quantity: 1 });
    await stack.whilePetsDown(async () => {
      const again = await place(stack, key, { petId, quantity: 1 });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
    });
    expect(await stack.stockOf(petId)).toBe(4);
  });

  it('treats an expired key as absent: the key acts again and its record is replaced', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(2);
    const key = randomUUID();
    const id = `${jane.accountId}:${key}`;
    const first = await place(stack, key, { petId, quantity: 1 });
    await keys(stack).updateOne(
      { _id: id },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );

    const again = await place(stack, key, { petId, quantity: 1 });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    const record = await keys(stack).findOne({ _id: id });
    expect(record?.response.body).toMatchObject({ id: again.body.id });
    expect(record!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('accepts a key of 255 characters and returns 400 for a longer or empty one', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    expect(
      (await place(stack, 'k'.repeat(255), { petId, quantity: 1 })).status,
    ).toBe(201);
    for (const key of ['k'.repeat(256), '']) {
      const answer = await place(stack, key, { petId, quantity: 1 });
      expect(answer.status, `${key.length} characters`).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
  });
});
