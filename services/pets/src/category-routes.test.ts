import { accounts } from '@petstore/testkit';
import type { Category } from '@petstore/contract';
import { describe, expect } from 'vitest';
import { it } from './test-support/pets-service.js';
import { nextLink, seedCategory, seedPet } from './test-support/seed.js';

describe('GET /v1/categories', () => {
  it('lists categories in id order, to customers too', async ({ pets }) => {
    await seedCategory(pets, { name: 'Dogs', description: 'Loyal' });
    await seedCategory(pets, 'Cats');
    const answer = await pets.call('GET', '/v1/categories', {
      as: accounts.jane,
    });
    expect(answer).toMatchObject({
      status: 200,
      body: [
        { id: 1, name: 'Dogs', description: 'Loyal' },
        { id: 2, name: 'Cats' },
      ],
    });
    expect(answer.headers.get('link')).toBeNull();
  });

  it('pages through 12 categories 5 at a time, each exactly once', async ({
    pets,
  }) => {
    for (let n = 1; n <= 12; n++) await seedCategory(pets, `Category ${n}`);
    const seen: number[] = [];
    let link: string | undefined = '/v1/categories?limit=5';
    let pages = 0;
    while (link !== undefined) {
      const url = new URL(link, pets.url);
      const answer = await pets.call('GET', url.pathname + url.search, {
        as: accounts.jane,
      });
      seen.push(...(answer.body as Category[]).map((category) => category.id));
      link = nextLink(answer.headers);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it.for(['limit=0', 'limit=101', 'cursor=%2F%2F%2F'])(
    'answers 400 validation_failed for %s',
    async (query, { pets }) => {
      const answer = await pets.call('GET', `/v1/categories?${query}`);
      expect(answer).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      });
    },
  );
});

describe('POST /v1/categories', () => {
  it('adds a category with 201 and its Location, trimming name and description', async ({
    pets,
  }) => {
    const answer = await pets.call('POST', '/v1/categories', {
      body: { name: ' Dogs ', description: ' Loyal companions. ' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: 1,
      name: 'Dogs',
      description: 'Loyal companions.',
    });
    expect(answer.headers.get('location')).toBe('/v2/categories/1');
  });

  it('leaves the description out when none is given', async ({ pets }) => {
    const answer = await pets.call('POST', '/v1/categories', {
      body: { name: 'Cats' },
    });
    expect(answer.body).toEqual({ id: 1, name: 'Cats' });
  });

  it('answers 409 conflict for a name already used, in any case', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    for (const name of ['Dogs', 'dogs', '  DOGS ']) {
      const answer = await pets.call('POST', '/v1/categories', {
        body: { name },
      });
      expect(answer).toMatchObject({
        status: 409,
        body: {
          code: 'conflict',
          status: 409,
          message: expect.stringContaining('[pets]') as unknown,
        },
      });
    }
    expect(await pets.db.collection('categories').countDocuments()).toBe(1);
  });

  it('answers 409 conflict for the same name composed differently in Unicode', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Caf\u00e9');
    const answer = await pets.call('POST', '/v1/categories', {
      body: { name: 'CAFE\u0301' },
    });
    expect(answer).toMatchObject({ status: 409, body: { code: 'conflict' } });
  });

  it('accepts exactly one of 10 concurrent creates of the same name in different cases', async ({
    pets,
  }) => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        pets.call('POST', '/v1/categories', {
          body: { name: n % 2 === 0 ? 'Dogs' : 'dogs' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([
      201, 409, 409, 409, 409, 409, 409, 409, 409, 409,
    ]);
    expect(await pets.db.collection('categories').countDocuments()).toBe(1);
  });

  it('answers 400 naming each unknown property, and stores nothing', async ({
    pets,
  }) => {
    const answer = await pets.call('POST', '/v1/categories', {
      body: {
        name: 'Dogs',
        description: 'Loyal',
        id: 9,
        nameKey: 'cats',
        revision: 7,
      },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    const { details } = answer.body as { details: { path: string }[] };
    expect(details.map(({ path }) => path)).toEqual([
      'body.id',
      'body.nameKey',
      'body.revision',
    ]);
    expect(await pets.db.collection('categories').countDocuments()).toBe(0);
  });

  it('answers 400 for a key starting with $ and writes nothing', async ({
    pets,
  }) => {
    const answer = await pets.call('POST', '/v1/categories', {
      body: { name: 'Dogs', $set: { admin: true } },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        details: [
          { path: 'body.$set' },
          { path: 'body.$set', message: 'unknown parameter' },
        ],
      },
    });
    expect(await pets.db.collection('categories').countDocuments()).toBe(0);
  });

  it.for([
    ['no name', {}],
    ['an empty name', { name: ' ' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }],
    [
      'a description over 1000 characters',
      { name: 'Dogs', description: 'x'.repeat(1001) },
    ],
    ['an object for a name', { name: { first: 'Dogs' } }],
  ])('answers 400 validation_failed for %s', async ([, body], { pets }) => {
    const answer = await pets.call('POST', '/v1/categories', { body });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
  });

  it('answers 403 forbidden to a customer', async ({ pets }) => {
    const answer = await pets.call('POST', '/v1/categories', {
      as: accounts.jane,
      body: { name: 'Dogs' },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(await pets.db.collection('categories').countDocuments()).toBe(0);
  });
});

describe('GET /v1/categories/{categoryId}', () => {
  it('answers the category', async ({ pets }) => {
    await seedCategory(pets, { name: 'Dogs', description: 'Loyal' });
    const answer = await pets.call('GET', '/v1/categories/1', {
      as: accounts.jane,
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Dogs', description: 'Loyal' },
    });
  });

  it('answers 404 not_found for a category that does not exist', async ({
    pets,
  }) => {
    const answer = await pets.call('GET', '/v1/categories/42');
    expect(answer).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: '[pets] category 42 not found' },
    });
  });

  it('answers 400 validation_failed for an id that is not an int64', async ({
    pets,
  }) => {
    const answer = await pets.call('GET', '/v1/categories/dogs');
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        details: [{ path: 'params.categoryId' }],
      },
    });
  });
});

describe('PUT /v1/categories/{categoryId}', () => {
  it('replaces the name and removes a description left out', async ({
    pets,
  }) => {
    await seedCategory(pets, { name: 'Dogs', description: 'Loyal' });
    const answer = await pets.call('PUT', '/v1/categories/1', {
      body: { name: 'Hounds' },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Hounds' },
    });
    expect(answer.body).not.toHaveProperty('description');
    expect(
      await pets.db.collection('categories').findOne({ _id: 1 as never }),
    ).toEqual({
      _id: 1,
      name: 'Hounds',
      nameKey: 'hounds',
      revision: 0,
    });
  });

  it('replaces the description it is given', async ({ pets }) => {
    await seedCategory(pets, 'Dogs');
    const answer = await pets.call('PUT', '/v1/categories/1', {
      body: { name: 'Dogs', description: 'Good' },
    });
    expect(answer.body).toEqual({ id: 1, name: 'Dogs', description: 'Good' });
  });

  it('lets a category change the case of its own name', async ({ pets }) => {
    await seedCategory(pets, 'dogs');
    const answer = await pets.call('PUT', '/v1/categories/1', {
      body: { name: 'Dogs' },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { id: 1, name: 'Dogs' },
    });
  });

  it('answers 409 conflict for a rename onto another category’s name, in any case', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedCategory(pets, 'Cats');
    const answer = await pets.call('PUT', '/v1/categories/2', {
      body: { name: 'DOGS' },
    });
    expect(answer).toMatchObject({ status: 409, body: { code: 'conflict' } });
    expect((await pets.call('GET', '/v1/categories/2')).body).toEqual({
      id: 2,
      name: 'Cats',
    });
  });

  it('answers 404 not_found for a category that does not exist', async ({
    pets,
  }) => {
    const answer = await pets.call('PUT', '/v1/categories/42', {
      body: { name: 'Dogs' },
    });
    expect(answer).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await pets.db.collection('categories').countDocuments()).toBe(0);
  });

  it('answers 400 validation_failed for a bad body', async ({ pets }) => {
    await seedCategory(pets, 'Dogs');
    const answer = await pets.call('PUT', '/v1/categories/1', {
      body: { description: 'x' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
  });

  it('answers 403 forbidden to a customer', async ({ pets }) => {
    await seedCategory(pets, 'Dogs');
    const answer = await pets.call('PUT', '/v1/categories/1', {
      as: accounts.jane,
      body: { name: 'Mine' },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });
});

describe('DELETE /v1/categories/{categoryId}', () => {
  it('removes a category no pet uses, with 204', async ({ pets }) => {
    await seedCategory(pets, 'Dogs');
    const answer = await pets.call('DELETE', '/v1/categories/1');
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect((await pets.call('GET', '/v1/categories/1')).status).toBe(404);
  });

  it('answers 409 category_in_use while a pet uses it, and 204 once none does', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedCategory(pets, 'Cats');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const refused = await pets.call('DELETE', '/v1/categories/1');
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'category_in_use', status: 409 },
    });
    expect((await pets.call('GET', '/v1/categories/1')).status).toBe(200);

    await pets.call('PATCH', '/v1/pets/1', { body: { categoryId: 2 } });
    expect((await pets.call('DELETE', '/v1/categories/1')).status).toBe(204);
  });

  it('answers one of 10 concurrent deletes with 204 and the others with 404', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => pets.call('DELETE', '/v1/categories/1')),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([
      204, 404, 404, 404, 404, 404, 404, 404, 404, 404,
    ]);
  });

  it('gives a new category a new id, never a deleted one’s', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await pets.call('DELETE', '/v1/categories/1');
    expect((await seedCategory(pets, 'Dogs')).id).toBe(2);
  });

  it('answers 404 not_found for a category that does not exist', async ({
    pets,
  }) => {
    const answer = await pets.call('DELETE', '/v1/categories/42');
    expect(answer).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('answers 403 forbidden to a customer, and keeps the category', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    const answer = await pets.call('DELETE', '/v1/categories/1', {
      as: accounts.jane,
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await pets.call('GET', '/v1/categories/1')).status).toBe(200);
  });
});
