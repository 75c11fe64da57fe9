import { testInternalToken } from '@petstore/testkit';
import { createInternalClient } from '@petstore/contract';
import { describe, expect } from 'vitest';
import { it } from './test-support/pets-service.js';
import { seedCategory, seedPet } from './test-support/seed.js';

describe('the internal routes, as the store calls them', () => {
  it('answer a pet by id to the internal token alone, with no account', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    const rex = await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const client = createInternalClient({
      baseUrl: pets.url,
      internalToken: testInternalToken,
      requestId: 'req-1',
    });
    const answer = await client.pets.getPet({ params: { petId: '1' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(rex);
    expect(answer.headers.get('x-request-id')).toBe('req-1');
  });

  it('answer 404 not_found for a pet that does not exist', async ({ pets }) => {
    const client = createInternalClient({
      baseUrl: pets.url,
      internalToken: testInternalToken,
    });
    const answer = await client.pets.getPet({ params: { petId: '42' } });
    expect(answer).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: '[pets] pet 42 not found' },
    });
  });

  it('take the status the store pushes, which the public API then shows', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const client = createInternalClient({
      baseUrl: pets.url,
      internalToken: testInternalToken,
    });
    for (const [index, status] of (
      ['pending', 'sold', 'available'] as const
    ).entries()) {
      const answer = await client.pets.setPetStatus({
        params: { petId: '1' },
        body: { status, version: index + 1 },
      });
      expect(answer).toMatchObject({
        status: 200,
        body: { id: 1, name: 'Rex', categoryId: 1, status },
      });
      expect((await pets.call('GET', '/v1/pets/1')).body).toMatchObject({
        status,
      });
    }
  });

  it('refuse a push with fields beyond the status and its version', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PUT', '/internal/pets/1/status', {
      as: 'service',
      body: { status: 'sold', version: 1, name: 'Changed' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { details: [{ path: 'body.name', message: 'unknown parameter' }] },
    });
    expect(await pets.db.collection('pets').findOne()).toMatchObject({
      status: 'available',
    });
  });

  it('store nothing but the status a push carries', async ({ pets }) => {
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PUT', '/internal/pets/1/status', {
      as: 'service',
      body: { status: 'sold', version: 1 },
    });
    expect(answer.status).toBe(200);
    const stored = await pets.db.collection('pets').find().toArray();
    // The status and its version: nothing else.
    expect(stored).toEqual([
      { _id: 1, name: 'Rex', categoryId: 1, status: 'sold', statusVersion: 1 },
    ]);
    // The event the change records for webhooks, in the outbox.
    const outbox = await pets.db.collection('outbox').find().toArray();
    expect(outbox.map(({ payload }) => payload as unknown)).toEqual([
      expect.objectContaining({
        type: 'pet.status_changed',
        data: { id: 1, name: 'Rex', categoryId: 1, status: 'sold' },
      }),
    ]);
  });

  it('keep a pushed status only over an older version: a delayed push changes nothing', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const client = createInternalClient({
      baseUrl: pets.url,
      internalToken: testInternalToken,
    });
    const push = (status: 'available' | 'sold', version: number) =>
      client.pets.setPetStatus({
        params: { petId: '1' },
        body: { status, version },
      });
    expect(await push('sold', 5)).toMatchObject({
      status: 200,
      body: { status: 'sold' },
    });
    for (const version of [4, 5]) {
      expect(await push('available', version)).toMatchObject({
        status: 200,
        body: { status: 'sold' },
      });
    }
    expect((await pets.call('GET', '/v1/pets/1')).body).toMatchObject({
      status: 'sold',
    });
    expect(await push('available', 6)).toMatchObject({
      body: { status: 'available' },
    });
  });

  it('answer the statuses of the pets asked for that exist', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    await seedPet(pets, { name: 'Tom', categoryId: 1, status: 'sold' });
    const client = createInternalClient({
      baseUrl: pets.url,
      internalToken: testInternalToken,
    });
    const answer = await client.pets.listPetStatuses({
      query: { petId: ['2', '1', '99'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(
      expect.arrayContaining([
        { petId: 1, status: 'available' },
        { petId: 2, status: 'sold' },
      ]),
    );
    expect(answer.body).toHaveLength(2);
  });

  it('answer a status push for a pet that does not exist with 404, creating nothing', async ({
    pets,
  }) => {
    const client = createInternalClient({
      baseUrl: pets.url,
      internalToken: testInternalToken,
    });
    const answer = await client.pets.setPetStatus({
      params: { petId: '42' },
      body: { status: 'sold', version: 1 },
    });
    expect(answer).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it.for([
    ['an unknown status', { status: 'reserved', version: 1 }],
    ['no status', { version: 1 }],
    ['no version', { status: 'sold' }],
    ['a version of 0', { status: 'sold', version: 0 }],
    ['an operator', { status: 'sold', version: 1, $inc: { stock: 1 } }],
  ])(
    'answer 400 validation_failed for a push with %s',
    async ([, body], { pets }) => {
      await seedCategory(pets, 'Dogs');
      await seedPet(pets, { name: 'Rex', categoryId: 1 });
      const answer = await pets.call('PUT', '/internal/pets/1/status', {
        as: 'service',
        body,
      });
      expect(answer).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      });
      expect((await pets.call('GET', '/v1/pets/1')).body).toMatchObject({
        status: 'available',
      });
    },
  );

  it('answer 401 to a caller with the wrong internal token', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const client = createInternalClient({
      baseUrl: pets.url,
      internalToken: 'not-the-internal-token-0123456789abcdef',
    });
    expect((await client.pets.getPet({ params: { petId: '1' } })).status).toBe(
      401,
    );
    const push = await client.pets.setPetStatus({
      params: { petId: '1' },
      body: { status: 'sold', version: 1 },
    });
    expect(push.status).toBe(401);
    expect((await pets.call('GET', '/v1/pets/1')).body).toMatchObject({
      status: 'available',
    });
  });
});
