import { randomUUID } from 'node:crypto';
import { accounts, type Account } from '@petstore/testkit';
import { describe, expect, vi } from 'vitest';
import {
  IdempotencyRepository,
  type IdempotencyRecord,
} from '../repositories/idempotency-repository.js';
import { it, testLogger, type Stack } from '../test-support/stack.js';
import { createIdempotency, defaultIdempotencyOptions, hashBody } from './idempotency.js';

describe('hashBody', () => {
  it('is the same whatever the order of the keys', () => {
    expect(hashBody({ petId: 1, quantity: 2 })).toBe(hashBody({ quantity: 2, petId: 1 }));
  });

  it('ignores properties that are undefined', () => {
    expect(hashBody({ petId: 1, shipDate: undefined })).toBe(hashBody({ petId: 1 }));
  });

  it('differs when a value differs', () => {
    expect(hashBody({ petId: 1, quantity: 2 })).not.toBe(hashBody({ petId: 1, quantity: 3 }));
    expect(hashBody({ petId: 1 })).not.toBe(hashBody({ petId: '1' }));
  });

  it('is a SHA-256 in hex', () => {
    expect(hashBody({})).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('Idempotency-Key on POST /v1/store/orders', () => {
  const { jane, john } = accounts;
  const keys = (stack: Stack) => stack.storeDb.collection<IdempotencyRecord>('idempotency_keys');

  function place(stack: Stack, key: string, body: unknown, as: Account = jane) {
    return stack.placeOrder(as, body, { 'idempotency-key': key });
  }

  /** Inserts the pending record of another request that claimed `key` to order one of `petId`. */
  function claimElsewhere(
    stack: Stack,
    key: string,
    petId: number,
    claim: Pick<IdempotencyRecord, 'claimToken' | 'leaseExpiresAt' | 'createdAt'>,
  ) {
    return keys(stack).insertOne({
      _id: `${jane.accountId}:${key}`,
      requestHash: hashBody({ petId, quantity: 1 }),
      state: 'pending',
      expiresAt: new Date(Date.now() + 3_600_000),
      ...claim,
    });
  }

  it('creates one order for 15 concurrent requests with one key, and answers each 201 with its id', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(20);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => place(stack, key, { petId, quantity: 2 })),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(15).fill(201));
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    for (const answer of answers) {
      expect(answer.headers.get('location')).toBe(`/v1/store/orders/${id}`);
    }
    expect(await stack.storeDb.collection('orders').countDocuments({ petId })).toBe(1);
    expect(await stack.stockOf(petId)).toBe(18);
  });

  it('answers a retry with the first response and creates nothing', async ({ stack }) => {
    const petId = await stack.petWithStock(5);
    const key = randomUUID();
    const body = { petId, quantity: 1, shipDate: '2026-12-01T10:00:00Z' };
    const first = await place(stack, key, body);
    const retry = await place(stack, key, body);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    // The same instant written with an offset is the same request.
    const sameInstant = await place(stack, key, { ...body, shipDate: '2026-12-01T11:00:00+01:00' });
    expect(sameInstant.body).toEqual(first.body);
    expect(await stack.stockOf(petId)).toBe(4);
  });

  it('returns 422 idempotency_key_reused for the same key with another body', async ({ stack }) => {
    const petId = await stack.petWithStock(5);
    const key = randomUUID();
    await place(stack, key, { petId, quantity: 1 });
    const reused = await place(stack, key, { petId, quantity: 2 });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
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
    const record = await keys(stack).findOne({ _id: `${jane.accountId}:${key}` });
    expect(record).toMatchObject({
      state: 'done',
      requestHash: hashBody({ petId, quantity: 1 }),
      response: { status: 201, body: placed.body },
    });
    const hours = (record!.expiresAt.getTime() - before) / 3_600_000;
    expect(hours).toBeGreaterThanOrEqual(48);
    expect(hours).toBeLessThan(48.1);
  });

  it('does not remember a failure: after 409 insufficient_stock a retry with the key can succeed', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(0);
    const key = randomUUID();
    const refused = await place(stack, key, { petId, quantity: 1 });
    expect(refused.status).toBe(409);
    expect(await keys(stack).countDocuments({ _id: `${jane.accountId}:${key}` })).toBe(0);

    await stack.store.call('PUT', `/v1/store/inventory/${petId}`, { body: { quantity: 1 } });
    const retried = await place(stack, key, { petId, quantity: 1 });
    expect(retried.status).toBe(201);
  });

  it('treats an expired key as absent: the key acts again and the old record is gone', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(2);
    const key = randomUUID();
    const id = `${jane.accountId}:${key}`;
    const first = await place(stack, key, { petId, quantity: 1 });
    await keys(stack).updateOne({ _id: id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });

    const again = await place(stack, key, { petId, quantity: 1 });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    const record = await keys(stack).findOne({ _id: id });
    expect(record?.response?.body.id).toBe(again.body.id);
    expect(record!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('waits for a request still holding the key and answers what it stored', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const key = randomUUID();
    const id = `${jane.accountId}:${key}`;
    const now = Date.now();
    await claimElsewhere(stack, key, petId, {
      claimToken: 'another-request',
      leaseExpiresAt: new Date(now + 60_000),
      createdAt: new Date(now),
    });
    const waiting = place(stack, key, { petId, quantity: 1 });
    const stored = { id: 424242, petId, quantity: 1, shipDate: '2026-12-01T10:00:00Z' };
    await keys(stack).updateOne(
      { _id: id },
      { $set: { state: 'done', response: { status: 201, body: { ...stored, complete: false } } } },
    );
    const answer = await waiting;
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ ...stored, complete: false });
    expect(await stack.stockOf(petId)).toBe(1);
  });

  it('takes over a key whose holder died (its lease ran out)', async ({ stack }) => {
    const petId = await stack.petWithStock(1);
    const key = randomUUID();
    const now = Date.now();
    await claimElsewhere(stack, key, petId, {
      claimToken: 'a-request-that-died',
      leaseExpiresAt: new Date(now - 1),
      createdAt: new Date(now - 120_000),
    });
    const answer = await place(stack, key, { petId, quantity: 1 });
    expect(answer.status).toBe(201);
    expect(await stack.stockOf(petId)).toBe(0);
  });

  it('answers the order of a holder that died before storing its answer, and places no other', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(2);
    const key = randomUUID();
    const first = await place(stack, key, { petId, quantity: 1 });
    expect(first.status).toBe(201);
    // As if the holder's database went away right after the order was stored: the record was
    // left pending, and its lease has run out since.
    await keys(stack).updateOne(
      { _id: `${jane.accountId}:${key}` },
      {
        $set: { state: 'pending', claimToken: 'a-request-that-died', leaseExpiresAt: new Date(0) },
        $unset: { response: '' },
      },
    );

    const retry = await place(stack, key, { petId, quantity: 1 });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('location')).toBe(`/v1/store/orders/${first.body.id}`);
    expect(await stack.stockOf(petId)).toBe(1);
    expect(await stack.storeDb.collection('orders').countDocuments({ petId })).toBe(1);
    // The key now holds the answer, for every later retry.
    expect(await keys(stack).findOne({ _id: `${jane.accountId}:${key}` })).toMatchObject({
      state: 'done',
      response: { status: 201, body: first.body },
    });
  });

  it('throws 409 conflict when the holder of the key does not respond in time', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    const key = randomUUID();
    const now = Date.now();
    await claimElsewhere(stack, key, petId, {
      claimToken: 'a-slow-request',
      leaseExpiresAt: new Date(now + 60_000),
      createdAt: new Date(now),
    });
    const idempotency = createIdempotency(
      new IdempotencyRepository(stack.storeDb),
      testLogger('keys'),
      { ...defaultIdempotencyOptions, waitMs: 200 },
    );
    const act = vi.fn();
    const request = { accountId: jane.accountId, key, body: { petId, quantity: 1 } };
    await expect(idempotency.run(request, act)).rejects.toMatchObject({
      code: 'conflict',
      status: 409,
    });
    expect(act).not.toHaveBeenCalled();
  });

  it('accepts a key of 255 characters and returns 400 for a longer or empty one', async ({
    stack,
  }) => {
    const petId = await stack.petWithStock(1);
    expect((await place(stack, 'k'.repeat(255), { petId, quantity: 1 })).status).toBe(201);
    for (const key of ['k'.repeat(256), '']) {
      const answer = await place(stack, key, { petId, quantity: 1 });
      expect(answer.status, `${key.length} characters`).toBe(400);
      expect(answer.body.code).toBe('validation_failed');
    }
  });
});

describe('a claim on a key', () => {
  const keysOf = (stack: Stack) => stack.storeDb.collection<IdempotencyRecord>('idempotency_keys');

  it('is renewed while its request runs, so a request waiting on it is answered, not run again', async ({
    stack,
  }) => {
    const repository = new IdempotencyRepository(stack.storeDb);
    const idempotency = createIdempotency(repository, testLogger('keys'), {
      retentionMs: 3_600_000,
      pendingLeaseMs: 300,
      waitMs: 10_000,
      pollMs: 10,
    });
    const request = { accountId: 'acct_renew', key: randomUUID(), body: { petId: 1 } };
    const response = {
      status: 201 as const,
      body: { id: 7, petId: 1, quantity: 1, shipDate: '2026-12-01T10:00:00Z', complete: false },
    };
    let acted = 0;
    let finish = () => {};
    const first = idempotency.run(request, async () => {
      acted += 1;
      await new Promise<void>((resolve) => (finish = resolve));
      return response;
    });
    const id = `${request.accountId}:${request.key}`;
    // Renewed twice: the request has outlived its first lease by a good margin.
    const leases = new Set<number>();
    await vi.waitFor(
      async () => {
        const record = await keysOf(stack).findOne({ _id: id });
        if (record) leases.add(record.leaseExpiresAt.getTime());
        expect(leases.size).toBeGreaterThanOrEqual(3);
      },
      { timeout: 10_000, interval: 50 },
    );

    const second = idempotency.run(request, () => {
      acted += 1;
      return Promise.resolve(response);
    });
    finish();

    expect(await first).toEqual(response);
    expect(await second).toEqual(response);
    expect(acted).toBe(1);
  });
});
