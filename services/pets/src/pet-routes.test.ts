import { accounts } from '@petstore/testkit';
import type { Pet } from '@petstore/contract';
import type { MongoServer } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import {
  it as petsIt,
  startTestPets,
  type ServedPets,
} from './test-support/pets-service.js';
import { nextLink, seedCategory, seedPet } from './test-support/seed.js';

/** A service with categories 1 (Dogs) and 2 (Cats). */
async function petsWithCategories(mongo: MongoServer): Promise<ServedPets> {
  const pets = await startTestPets(mongo);
  await seedCategory(pets, 'Dogs');
  await seedCategory(pets, 'Cats');
  return pets;
}

const it = petsIt.extend<{
  petsWithCategories: ServedPets;
  filtered: ServedPets;
  paged: ServedPets;
}>({
  petsWithCategories: async ({ mongo }, use) => {
    await using pets = await petsWithCategories(mongo);
    await use(pets);
  },
  /** Four pets in both categories and three statuses, for the file's tests of filters. */
  filtered: [
    async ({ mongo }, use) => {
      await using pets = await petsWithCategories(mongo);
      await seedPet(pets, { name: 'Rex', categoryId: 1, status: 'available' });
      await seedPet(pets, { name: 'Tom', categoryId: 2, status: 'pending' });
      await seedPet(pets, { name: 'Fido', categoryId: 1, status: 'sold' });
      await seedPet(pets, {
        name: 'Kitty',
        categoryId: 2,
        status: 'available',
      });
      await use(pets);
    },
    { scope: 'file' },
  ],
  /** 25 pets, odd ones available and even ones sold, for the file's tests of pages. */
  paged: [
    async ({ mongo }, use) => {
      await using pets = await petsWithCategories(mongo);
      for (let n = 1; n <= 25; n++) {
        await seedPet(pets, {
          name: `Pet ${n}`,
          categoryId: 1,
          status: n % 2 === 0 ? 'sold' : 'available',
        });
      }
      await use(pets);
    },
    { scope: 'file' },
  ],
});

function names(body: unknown): string[] {
  return (body as Pet[]).map((pet) => pet.name);
}

describe('GET /v1/pets', () => {
  it('answers 400 naming an unknown query parameter, as it does for one on a single pet', async ({
    pets,
  }) => {
    for (const path of [
      '/v1/pets?limit=5&colour=brown',
      '/v1/pets/1?colour=brown',
    ]) {
      expect(await pets.call('GET', path), path).toMatchObject({
        status: 400,
        body: {
          code: 'validation_failed',
          message: 'query.colour: unknown parameter',
          details: [{ path: 'query.colour', message: 'unknown parameter' }],
        },
      });
    }
  });

  it('answers an empty list without a Link when there are no pets', async ({
    pets,
  }) => {
    const answer = await pets.call('GET', '/v1/pets', { as: accounts.jane });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    expect(answer.headers.get('link')).toBeNull();
  });

  it('lists pets in id order, to customers too', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    await seedPet(pets, { name: 'Tom', categoryId: 2, status: 'sold' });
    const answer = await pets.call('GET', '/v1/pets', { as: accounts.jane });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
    ]);
  });

  describe('filters', () => {
    it('keeps the pets of one status', async ({ filtered: pets }) => {
      const answer = await pets.call('GET', '/v1/pets?status=available');
      expect(names(answer.body)).toEqual(['Rex', 'Kitty']);
    });

    it('keeps the pets of any of several statuses given as a repeated parameter', async ({
      filtered: pets,
    }) => {
      const answer = await pets.call(
        'GET',
        '/v1/pets?status=pending&status=sold',
      );
      expect(names(answer.body)).toEqual(['Tom', 'Fido']);
    });

    it('keeps the pets of a category', async ({ filtered: pets }) => {
      const answer = await pets.call('GET', '/v1/pets?categoryId=2');
      expect(names(answer.body)).toEqual(['Tom', 'Kitty']);
    });

    it('combines status and category', async ({ filtered: pets }) => {
      const answer = await pets.call(
        'GET',
        '/v1/pets?categoryId=1&status=sold',
      );
      expect(names(answer.body)).toEqual(['Fido']);
    });

    it('answers an empty list for a category nobody uses', async ({
      filtered: pets,
    }) => {
      const answer = await pets.call('GET', '/v1/pets?categoryId=999');
      expect(answer).toMatchObject({ status: 200, body: [] });
    });

    it.for([
      ['status=lost', 'query.status.0'],
      ['status=', 'query.status.0'],
      ['categoryId=-1', 'query.categoryId'],
      ['categoryId=abc', 'query.categoryId'],
      ['categoryId=9223372036854775808', 'query.categoryId'],
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['limit=ten', 'query.limit'],
      ['cursor=not-a-cursor', 'query.cursor'],
    ])(
      'answers 400 validation_failed for %s',
      async ([query, path], { filtered: pets }) => {
        const answer = await pets.call('GET', `/v1/pets?${query}`);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({
          code: 'validation_failed',
          status: 400,
          details: expect.arrayContaining([
            expect.objectContaining({ path }),
          ]) as unknown,
        });
      },
    );
  });

  describe('pages', () => {
    it('walks 25 pets 10 at a time through the Link headers, each exactly once', async ({
      paged: pets,
    }) => {
      const seen: number[] = [];
      const sizes: number[] = [];
      let link: string | undefined = '/v1/pets?limit=10';
      while (link !== undefined) {
        // The link is relative to the request; resolved against the service, as a client would.
        const url = new URL(link, pets.url);
        const answer = await pets.call('GET', url.pathname + url.search);
        expect(answer.status).toBe(200);
        const page = answer.body as Pet[];
        sizes.push(page.length);
        seen.push(...page.map((pet) => pet.id));
        link = nextLink(answer.headers);
        if (link !== undefined)
          expect(link).toMatch(/^\/v1\/pets\?limit=10&cursor=[A-Za-z0-9_-]+$/);
      }
      expect(sizes).toEqual([10, 10, 5]);
      expect(new Set(seen).size).toBe(25);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    });

    it('keeps the filters in the link to the next page', async ({
      paged: pets,
    }) => {
      const first = await pets.call('GET', '/v1/pets?status=sold&limit=5');
      const link = nextLink(first.headers);
      expect(link).toMatch(/^\/v1\/pets\?status=sold&limit=5&cursor=/);
      const second = await pets.call('GET', link!);
      expect(names(second.body)).toEqual([
        'Pet 12',
        'Pet 14',
        'Pet 16',
        'Pet 18',
        'Pet 20',
      ]);
    });

    it('gives 20 pets a page when no limit is asked', async ({
      paged: pets,
    }) => {
      const answer = await pets.call('GET', '/v1/pets');
      expect((answer.body as Pet[]).length).toBe(20);
      expect(nextLink(answer.headers)).toMatch(/^\/v1\/pets\?cursor=/);
    });

    it('sends no Link when the page is the last, even a full one', async ({
      paged: pets,
    }) => {
      const answer = await pets.call('GET', '/v1/pets?limit=25');
      expect((answer.body as Pet[]).length).toBe(25);
      expect(answer.headers.get('link')).toBeNull();
    });
  });
});

describe('POST /v1/pets', () => {
  it('adds an available pet by default, answering 201 with its Location in /v2', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: { name: '  Rex ', categoryId: 1 },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: 1,
      name: 'Rex',
      categoryId: 1,
      status: 'available',
    });
    expect(answer.headers.get('location')).toBe('/v2/pets/1');
    expect(await pets.call('GET', '/v2/pets/1')).toMatchObject({
      status: 200,
      body: answer.body,
    });
    expect(await pets.call('GET', '/v1/pets/1')).toMatchObject({
      status: 200,
      body: answer.body,
    });
  });

  it('adds a pet through /v2 the same way, its Location in /v2', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v2/pets', {
      body: { name: 'Rex', categoryId: 1 },
    });
    expect(answer).toMatchObject({ status: 201, body: { id: 1, name: 'Rex' } });
    expect(answer.headers.get('location')).toBe('/v2/pets/1');
  });

  it('keeps the status it is given', async ({ petsWithCategories: pets }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: { name: 'Tom', categoryId: 2, status: 'pending' },
    });
    expect(answer.body).toEqual({
      id: 1,
      name: 'Tom',
      categoryId: 2,
      status: 'pending',
    });
  });

  it('gives sequential ids and never gives a deleted pet’s id again', async ({
    petsWithCategories: pets,
  }) => {
    const first = await seedPet(pets, { name: 'A', categoryId: 1 });
    const second = await seedPet(pets, { name: 'B', categoryId: 1 });
    const third = await seedPet(pets, { name: 'C', categoryId: 1 });
    expect([first.id, second.id, third.id]).toEqual([1, 2, 3]);
    expect((await pets.call('DELETE', '/v1/pets/3')).status).toBe(204);
    const fourth = await seedPet(pets, { name: 'D', categoryId: 1 });
    expect(fourth.id).toBe(4);
  });

  it('answers 422 unknown_category for a category that does not exist, and adds nothing', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: { name: 'Rex', categoryId: 3 },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'unknown_category',
      status: 422,
      message: '[pets] category 3 does not exist',
    });
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it('answers 400 naming each unknown property, and stores nothing', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: { name: 'Rex', categoryId: 1, id: 77, _id: 99, color: 'brown' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    const { details, message } = answer.body as {
      details: { path: string }[];
      message: string;
    };
    expect(details.map(({ path }) => path)).toEqual([
      'body.id',
      'body._id',
      'body.color',
    ]);
    expect(message).toContain('body.color: unknown parameter');
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it('answers 400 for a key starting with $ and writes nothing', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: {
        name: 'Rex',
        categoryId: 1,
        $where: 'sleep(1000)',
        nested: { $gt: '' },
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'validation_failed',
      details: expect.arrayContaining([
        expect.objectContaining({ path: 'body.$where' }),
        expect.objectContaining({ path: 'body.nested.$gt' }),
        { path: 'body.nested', message: 'unknown parameter' },
      ]) as unknown,
    });
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
    expect(
      await pets.db.collection('counters').findOne({ _id: 'pets' as never }),
    ).toBeNull();
  });

  it('answers 400 for a Mongo operator in place of a name', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: { name: { $gt: '' }, categoryId: 1 },
    });
    expect(answer.status).toBe(400);
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it.for([
    ['no name', { categoryId: 1 }, 'body.name'],
    ['an empty name', { name: '   ', categoryId: 1 }, 'body.name'],
    [
      'a name over 100 characters',
      { name: 'x'.repeat(101), categoryId: 1 },
      'body.name',
    ],
    ['no category', { name: 'Rex' }, 'body.categoryId'],
    [
      'a category id as a string',
      { name: 'Rex', categoryId: '1' },
      'body.categoryId',
    ],
    [
      'a negative category id',
      { name: 'Rex', categoryId: -1 },
      'body.categoryId',
    ],
    [
      'a fractional category id',
      { name: 'Rex', categoryId: 1.5 },
      'body.categoryId',
    ],
    [
      'an unknown status',
      { name: 'Rex', categoryId: 1, status: 'lost' },
      'body.status',
    ],
  ])(
    'answers 400 validation_failed for %s',
    async ([, body, path], { petsWithCategories: pets }) => {
      const answer = await pets.call('POST', '/v1/pets', { body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'validation_failed',
        details: expect.arrayContaining([
          expect.objectContaining({ path }),
        ]) as unknown,
      });
    },
  );

  it('answers 400 invalid_json for a body that is not JSON', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: '{"name": "Rex",',
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'invalid_json' },
    });
  });

  it('answers 400 unsupported_content_type for a body that is not declared JSON', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      body: '{"name":"Rex","categoryId":1}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'unsupported_content_type' },
    });
  });

  it('answers 403 forbidden to a customer, and adds nothing', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      as: accounts.jane,
      body: { name: 'Rex', categoryId: 1 },
    });
    expect(answer).toMatchObject({
      status: 403,
      body: { code: 'forbidden', status: 403 },
    });
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it('answers 401 when the gateway vouched for no account', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets', {
      as: 'service',
      body: { name: 'Rex', categoryId: 1 },
    });
    expect(answer).toMatchObject({
      status: 401,
      body: { code: 'unauthorized' },
    });
  });
});

describe('GET /v1/pets/{petId}', () => {
  it('answers the pet', async ({ petsWithCategories: pets }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('GET', '/v1/pets/1', { as: accounts.jane });
    expect(answer).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    });
  });

  it.for(['42', '007', '9223372036854775807'])(
    'answers 404 not_found for %s, an id never issued',
    async (id, { pets }) => {
      const answer = await pets.call('GET', `/v1/pets/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({
        code: 'not_found',
        status: 404,
        message: expect.stringMatching(
          /^\[pets\] pet \d+ not found$/,
        ) as unknown,
      });
    },
  );

  it.for(['abc', '-1', '1.5', '1e3', '0x10', '9223372036854775808', '%20'])(
    'answers 400 validation_failed for the id %s',
    async (id, { pets }) => {
      const answer = await pets.call('GET', `/v1/pets/${id}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'validation_failed',
        details: [expect.objectContaining({ path: 'params.petId' })] as unknown,
      });
    },
  );
});

describe('PUT /v1/pets/{petId}', () => {
  it('replaces every field, the status becoming available when left out', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1, status: 'sold' });
    const answer = await pets.call('PUT', '/v1/pets/1', {
      body: { name: 'Felix', categoryId: 2 },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Felix', categoryId: 2, status: 'available' },
    });
    expect((await pets.call('GET', '/v1/pets/1')).body).toEqual(answer.body);
  });

  it('keeps the status it is given', async ({ petsWithCategories: pets }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PUT', '/v1/pets/1', {
      body: { name: 'Rex', categoryId: 1, status: 'pending' },
    });
    expect(answer.body).toEqual({
      id: 1,
      name: 'Rex',
      categoryId: 1,
      status: 'pending',
    });
  });

  it('answers 400 for unknown properties and leaves the pet as it was', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PUT', '/v1/pets/1', {
      body: { name: 'Max', categoryId: 1, id: 5, _id: 6, owner: 'jane' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    expect(await pets.db.collection('pets').find().toArray()).toEqual([
      { _id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    ]);
  });

  it('answers 422 unknown_category and leaves the pet as it was', async ({
    petsWithCategories: pets,
  }) => {
    const rex = await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PUT', '/v1/pets/1', {
      body: { name: 'Rex', categoryId: 9 },
    });
    expect(answer).toMatchObject({
      status: 422,
      body: { code: 'unknown_category' },
    });
    expect((await pets.call('GET', '/v1/pets/1')).body).toEqual(rex);
  });

  it('answers 404 not_found for a pet that does not exist, even with an unknown category', async ({
    petsWithCategories: pets,
  }) => {
    for (const categoryId of [1, 9]) {
      const answer = await pets.call('PUT', '/v1/pets/42', {
        body: { name: 'Rex', categoryId },
      });
      expect(answer).toMatchObject({
        status: 404,
        body: { code: 'not_found', message: '[pets] pet 42 not found' },
      });
    }
    expect(await pets.db.collection('pets').countDocuments()).toBe(0);
  });

  it('answers 400 validation_failed for a partial pet', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PUT', '/v1/pets/1', {
      body: { name: 'Rex' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
  });

  it('answers 400 validation_failed for an id that is not an int64', async ({
    petsWithCategories: pets,
  }) => {
    const answer = await pets.call('PUT', '/v1/pets/one', {
      body: { name: 'Rex', categoryId: 1 },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
  });

  it('answers 403 forbidden to a customer, and changes nothing', async ({
    petsWithCategories: pets,
  }) => {
    const rex = await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PUT', '/v1/pets/1', {
      as: accounts.jane,
      body: { name: 'Mine', categoryId: 1 },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await pets.call('GET', '/v1/pets/1')).body).toEqual(rex);
  });
});

describe('PATCH /v1/pets/{petId}', () => {
  it('changes the fields given and keeps the others', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1, status: 'pending' });
    const renamed = await pets.call('PATCH', '/v1/pets/1', {
      body: { name: 'Max' },
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Max', categoryId: 1, status: 'pending' },
    });
    const moved = await pets.call('PATCH', '/v1/pets/1', {
      body: { categoryId: 2, status: 'sold' },
    });
    expect(moved.body).toEqual({
      id: 1,
      name: 'Max',
      categoryId: 2,
      status: 'sold',
    });
    expect((await pets.call('GET', '/v1/pets/1')).body).toEqual(moved.body);
  });

  it('answers the pet unchanged for an empty patch', async ({
    petsWithCategories: pets,
  }) => {
    const rex = await seedPet(pets, { name: 'Rex', categoryId: 1 });
    expect(await pets.call('PATCH', '/v1/pets/1', { body: {} })).toMatchObject({
      status: 200,
      body: rex,
    });
  });

  it('answers 400 naming a misspelt field, and changes nothing', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PATCH', '/v1/pets/1', {
      body: { stauts: 'sold' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'body.stauts: unknown parameter',
        details: [{ path: 'body.stauts', message: 'unknown parameter' }],
      },
    });
    expect(await pets.db.collection('pets').find().toArray()).toEqual([
      { _id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    ]);
  });

  it('answers 422 unknown_category and leaves the pet as it was', async ({
    petsWithCategories: pets,
  }) => {
    const rex = await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PATCH', '/v1/pets/1', {
      body: { name: 'Max', categoryId: 9 },
    });
    expect(answer).toMatchObject({
      status: 422,
      body: { code: 'unknown_category' },
    });
    expect((await pets.call('GET', '/v1/pets/1')).body).toEqual(rex);
  });

  it('answers 404 not_found for a pet that does not exist', async ({
    petsWithCategories: pets,
  }) => {
    for (const body of [{}, { name: 'Max' }, { categoryId: 9 }]) {
      const answer = await pets.call('PATCH', '/v1/pets/42', { body });
      expect(answer).toMatchObject({
        status: 404,
        body: { code: 'not_found' },
      });
    }
  });

  it('answers 400 validation_failed for a bad field', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PATCH', '/v1/pets/1', {
      body: { status: 'adopted' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
  });

  it('answers 403 forbidden to a customer', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('PATCH', '/v1/pets/1', {
      as: accounts.jane,
      body: { name: 'Mine' },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });
});

describe('DELETE /v1/pets/{petId}', () => {
  it('removes the pet with 204 and no body', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('DELETE', '/v1/pets/1');
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect((await pets.call('GET', '/v1/pets/1')).status).toBe(404);
  });

  it('answers 404 not_found for a pet that does not exist, or no longer does', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    await pets.call('DELETE', '/v1/pets/1');
    for (const id of ['1', '42']) {
      const answer = await pets.call('DELETE', `/v1/pets/${id}`);
      expect(answer).toMatchObject({
        status: 404,
        body: { code: 'not_found', message: `[pets] pet ${id} not found` },
      });
    }
  });

  it('answers 400 validation_failed for an id that is not an int64', async ({
    petsWithCategories: pets,
  }) => {
    expect((await pets.call('DELETE', '/v1/pets/-1')).status).toBe(400);
  });

  it('answers 403 forbidden to a customer, and keeps the pet', async ({
    petsWithCategories: pets,
  }) => {
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('DELETE', '/v1/pets/1', {
      as: accounts.jane,
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await pets.call('GET', '/v1/pets/1')).status).toBe(200);
  });
});
