import { randomUUID } from 'node:crypto';
import type { Category, Pet } from '@petstore/contract';
import { accounts } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import { it, type ServedPets } from './test-support/pets-service.js';
import { seedCategory } from './test-support/seed.js';

const post = <Body>(
  pets: ServedPets,
  path: string,
  key: string,
  body: unknown,
) =>
  pets.call<Body>('POST', path, { body, headers: { 'idempotency-key': key } });

describe('Idempotency-Key on POST /v1/pets', () => {
  it('answers a retry with the first pet, Location and all, and adds no other', async ({
    pets,
  }) => {
    const { id: categoryId } = await seedCategory(pets, 'Dogs');
    const key = randomUUID();
    const body = { name: 'Rex', categoryId };
    const first = await post<Pet>(pets, '/v1/pets', key, body);
    const retry = await post<Pet>(pets, '/v1/pets', key, body);

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(await pets.db.collection('pets').countDocuments()).toBe(1);
  });

  it('returns 422 idempotency_key_reused for the same key with another body', async ({
    pets,
  }) => {
    const { id: categoryId } = await seedCategory(pets, 'Dogs');
    const key = randomUUID();
    await post(pets, '/v1/pets', key, { name: 'Rex', categoryId });
    const reused = await post(pets, '/v1/pets', key, {
      name: 'Fido',
      categoryId,
    });
    expect(reused).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused', status: 422 },
    });
    expect(await pets.db.collection('pets').countDocuments()).toBe(1);
  });

  it('makes one pet of 10 concurrent requests with one key, and answers each with it', async ({
    pets,
  }) => {
    const { id: categoryId } = await seedCategory(pets, 'Dogs');
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post<Pet>(pets, '/v1/pets', key, { name: 'Rex', categoryId }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await pets.db.collection('pets').countDocuments()).toBe(1);
  });

  it('remembers 422 unknown_category, even once the category exists', async ({
    pets,
  }) => {
    const key = randomUUID();
    const body = { name: 'Rex', categoryId: 1 };
    const refused = await post(pets, '/v1/pets', key, body);
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 'unknown_category' },
    });
    await seedCategory(pets, 'Dogs');

    const retried = await post(pets, '/v1/pets', key, body);
    expect(retried).toMatchObject({
      status: 422,
      body: { code: 'unknown_category' },
    });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it('answers 409 conflict while another request with the key has not committed, leaving it free', async ({
    pets,
  }) => {
    const { id: categoryId } = await seedCategory(pets, 'Dogs');
    const key = randomUUID();
    // Another request with the key, stuck before its commit: it holds the key's record.
    const session = pets.db.client.startSession();
    session.startTransaction();
    await pets.db
      .collection<{ _id: string }>('idempotency_keys')
      .insertOne({ _id: `${accounts.admin.accountId}:${key}` }, { session });

    const waiting = await post(pets, '/v1/pets', key, {
      name: 'Rex',
      categoryId,
    });
    expect(waiting).toMatchObject({
      status: 409,
      body: {
        code: 'conflict',
        message: expect.stringContaining('still in progress') as string,
      },
    });
    await session.abortTransaction();
    await session.endSession();

    expect(
      (await post(pets, '/v1/pets', key, { name: 'Rex', categoryId })).status,
    ).toBe(201);
    expect(await pets.db.collection('pets').countDocuments()).toBe(1);
  });

  it('leaves the key free after a 400 or a 403', async ({ pets }) => {
    const { id: categoryId } = await seedCategory(pets, 'Dogs');
    const key = randomUUID();
    const invalid = await post(pets, '/v1/pets', key, { name: '', categoryId });
    expect(invalid.status).toBe(400);
    const forbidden = await pets.call('POST', '/v1/pets', {
      as: accounts.jane,
      body: { name: 'Rex', categoryId },
      headers: { 'idempotency-key': key },
    });
    expect(forbidden.status).toBe(403);

    expect(
      (await post(pets, '/v1/pets', key, { name: 'Rex', categoryId })).status,
    ).toBe(201);
  });
});

describe('Idempotency-Key on POST /v1/categories', () => {
  it('answers a retry with the first category and adds no other', async ({
    pets,
  }) => {
    const key = randomUUID();
    const first = await post<Category>(pets, '/v1/categories', key, {
      name: 'Dogs',
    });
    const retry = await post<Category>(pets, '/v1/categories', key, {
      name: 'Dogs',
    });

    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(
      `/v2/categories/${first.body.id}`,
    );
    expect(await pets.db.collection('categories').countDocuments()).toBe(1);
  });

  it('returns 422 idempotency_key_reused for another body, or the key used to add a pet', async ({
    pets,
  }) => {
    const key = randomUUID();
    const { body: dogs } = await post<Category>(pets, '/v1/categories', key, {
      name: 'Dogs',
    });
    const reused = await post(pets, '/v1/categories', key, { name: 'Cats' });
    expect(reused).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
    const elsewhere = await post(pets, '/v1/pets', key, {
      name: 'Rex',
      categoryId: dogs.id,
    });
    expect(elsewhere).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
    expect(await pets.db.collection('categories').countDocuments()).toBe(1);
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it('makes one category of 10 concurrent requests with one key', async ({
    pets,
  }) => {
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post<Category>(pets, '/v1/categories', key, { name: 'Dogs' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await pets.db.collection('categories').countDocuments()).toBe(1);
  });

  it('remembers 409 conflict for a name taken, even once the name is free again', async ({
    pets,
  }) => {
    const taken = await seedCategory(pets, 'Dogs');
    const key = randomUUID();
    const refused = await post(pets, '/v1/categories', key, { name: 'dogs' });
    expect(refused).toMatchObject({ status: 409, body: { code: 'conflict' } });
    expect(
      (await pets.call('DELETE', `/v1/categories/${taken.id}`)).status,
    ).toBe(204);

    const retried = await post(pets, '/v1/categories', key, { name: 'dogs' });
    const { code, message } = refused.body as { code: string; message: string };
    expect(retried).toMatchObject({ status: 409, body: { code, message } });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps its records 48 hours, under a TTL index', async ({ pets }) => {
    const key = randomUUID();
    const before = Date.now();
    await post(pets, '/v1/categories', key, { name: 'Dogs' });
    const record = await pets.db
      .collection<{ _id: string; expiresAt: Date }>('idempotency_keys')
      .findOne({ _id: `${accounts.admin.accountId}:${key}` });
    expect(
      (record!.expiresAt.getTime() - before) / 3_600_000,
    ).toBeGreaterThanOrEqual(48);
    const indexes = await pets.db.collection('idempotency_keys').indexes();
    expect(indexes).toContainEqual(
      expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }),
    );
  });
});
