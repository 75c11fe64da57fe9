import { describe, expect } from 'vitest';
import {
  it as petsIt,
  startTestPets,
  type ServedPets,
} from './test-support/pets-service.js';
import { seedCategory, seedPet } from './test-support/seed.js';

const it = petsIt.extend<{ seeded: ServedPets }>({
  /** One service for the file, with Dogs and Rex: a later test sees what the earlier changed. */
  seeded: [
    async ({ mongo }, use) => {
      await using pets = await startTestPets(mongo);
      await seedCategory(pets, 'Dogs');
      await seedPet(pets, { name: 'Rex', categoryId: 1 });
      await use(pets);
    },
    { scope: 'file' },
  ],
});

const everyRoute: [string, string, unknown?][] = [
  ['GET', '/v1/pets'],
  ['POST', '/v1/pets', { name: 'Max', categoryId: 1 }],
  ['GET', '/v1/pets/1'],
  ['PUT', '/v1/pets/1', { name: 'Max', categoryId: 1 }],
  ['PATCH', '/v1/pets/1', { name: 'Max' }],
  ['DELETE', '/v1/pets/1'],
  ['GET', '/v1/categories'],
  ['POST', '/v1/categories', { name: 'Cats' }],
  ['GET', '/v1/categories/1'],
  ['PUT', '/v1/categories/1', { name: 'Cats' }],
  ['DELETE', '/v1/categories/1'],
  ['GET', '/internal/pets/1'],
  ['PUT', '/internal/pets/1/status', { status: 'sold' }],
];

describe('trust in the gateway', () => {
  it.for(everyRoute)(
    'answers %s %s with 401 without the internal token, changing nothing',
    async ([method, path, body], { seeded: pets }) => {
      const tokens: Record<string, string>[] = [
        {},
        { 'x-internal-token': 'wrong-token-0123456789abcdef0123456789' },
      ];
      for (const headers of tokens) {
        const answer = await pets.call(method, path, {
          as: 'nobody',
          body,
          headers: {
            ...headers,
            'x-account-id': 'acct_admin1',
            'x-account-role': 'admin',
          },
        });
        expect(answer).toMatchObject({
          status: 401,
          body: { code: 'unauthorized', status: 401 },
        });
      }
    },
  );

  it('changed nothing through the refused requests', async ({
    seeded: pets,
  }) => {
    expect(await pets.call('GET', '/v1/pets')).toMatchObject({
      body: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }],
    });
    expect(await pets.call('GET', '/v1/categories')).toMatchObject({
      body: [{ id: 1, name: 'Dogs' }],
    });
  });

  it('answers /health and /ready without the internal token', async ({
    seeded: pets,
  }) => {
    for (const path of ['/health', '/ready']) {
      expect(await pets.call('GET', path, { as: 'nobody' })).toMatchObject({
        status: 200,
        body: { status: 'ok' },
      });
    }
  });

  it('refuses an account role it does not know as no account at all', async ({
    seeded: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/categories', {
      as: 'service',
      headers: { 'x-account-id': 'acct_x1', 'x-account-role': 'root' },
      body: { name: 'Birds' },
    });
    expect(answer).toMatchObject({
      status: 401,
      body: { code: 'unauthorized' },
    });
  });

  it('answers 405 with Allow for a method a known path does not serve', async ({
    seeded: pets,
  }) => {
    const answer = await pets.call('POST', '/v1/pets/1', {
      body: { name: 'Rex' },
    });
    expect(answer).toMatchObject({
      status: 405,
      body: { code: 'method_not_allowed' },
    });
    expect(answer.headers.get('allow')).toContain('PATCH');
  });

  it('answers 404 route_not_found for a path it does not serve', async ({
    seeded: pets,
  }) => {
    const answer = await pets.call('GET', '/v1/orders');
    expect(answer).toMatchObject({
      status: 404,
      body: { code: 'route_not_found' },
    });
  });
});
