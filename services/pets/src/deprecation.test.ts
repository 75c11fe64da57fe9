import { accounts, testInternalToken } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import { it, startTestPets } from './test-support/pets-service.js';
import { seedCategory, seedPet } from './test-support/seed.js';

const sunset = new Date('2027-06-30T00:00:00Z');

/** The headers of the default deprecation (2026-01-01) and sunset (2027-06-30) for one id. */
const deprecatedFor = (id: string) => ({
  deprecation: '@1767225600',
  sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
  link: `</docs#tag/pets-v1/GET/v1/pets/{petId}>; rel="deprecation"; type="text/html", </v2/pets/${id}>; rel="successor-version"`,
});
const deprecated = deprecatedFor('42');

function deprecationOf(headers: Headers) {
  return {
    deprecation: headers.get('deprecation'),
    sunset: headers.get('sunset'),
    link: headers.get('link'),
  };
}

describe('the deprecated GET /v1/pets/{petId}', () => {
  it('marks a 200 with Deprecation, Sunset and a Link to its documentation', async ({
    pets,
  }) => {
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('GET', '/v1/pets/1', { as: accounts.jane });
    expect(answer.status).toBe(200);
    expect(deprecationOf(answer.headers)).toEqual(deprecatedFor('1'));
  });

  it('marks a 404 the same way', async ({ pets }) => {
    const answer = await pets.call('GET', '/v1/pets/42');
    expect(answer).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(deprecationOf(answer.headers)).toEqual(deprecated);
  });

  it('marks a 400 for a bad id the same way', async ({ pets }) => {
    const answer = await pets.call('GET', '/v1/pets/not-an-id');
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    expect(deprecationOf(answer.headers)).toEqual(deprecatedFor('not-an-id'));
  });

  it.for(['/v1/pets/42/', '/V1/Pets/42'])(
    'leaves %s unmarked: the router, as at the gateway, takes no route for it',
    async (path, { pets }) => {
      const answer = await pets.call('GET', path);
      expect(answer).toMatchObject({
        status: 404,
        body: { code: 'route_not_found' },
      });
      expect(answer.headers.get('deprecation')).toBeNull();
    },
  );

  it('marks a HEAD request the same way', async ({ pets }) => {
    const response = await fetch(`${pets.url}/v1/pets/42`, {
      method: 'HEAD',
      headers: { 'x-internal-token': testInternalToken },
    });
    expect(deprecationOf(response.headers)).toEqual(deprecated);
  });

  it('takes its deprecation and sunset dates from the configuration', async ({
    mongo,
  }) => {
    await using pets = await startTestPets(mongo, {
      env: {
        GET_PET_DEPRECATED_AT: '2025-03-01T12:30:00Z',
        GET_PET_SUNSET: '2028-01-15T08:00:00Z',
      },
    });
    const answer = await pets.call('GET', '/v1/pets/1');
    expect(deprecationOf(answer.headers)).toEqual({
      ...deprecatedFor('1'),
      deprecation: '@1740832200',
      sunset: 'Sat, 15 Jan 2028 08:00:00 GMT',
    });
  });

  it('still answers the pet one millisecond before the sunset', async ({
    mongo,
  }) => {
    await using pets = await startTestPets(mongo, {
      now: () => new Date(sunset.getTime() - 1),
    });
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    expect((await pets.call('GET', '/v1/pets/1')).status).toBe(200);
  });

  it('answers 410 gone from the sunset on, still marked, for any id', async ({
    mongo,
  }) => {
    let now = new Date(sunset.getTime() - 60_000);
    await using pets = await startTestPets(mongo, { now: () => now });
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    expect((await pets.call('GET', '/v1/pets/1')).status).toBe(200);

    now = sunset;
    for (const id of ['1', '42', 'not-an-id']) {
      const answer = await pets.call('GET', `/v1/pets/${id}`);
      expect(answer).toMatchObject({
        status: 410,
        body: { code: 'gone', status: 410 },
      });
      expect((answer.body as { message: string }).message).toMatch(
        /^\[pets\] GET \/v1\/pets\/\{petId\} was retired on 2027-06-30T00:00:00\.000Z; use its successor, GET \/v2\/pets\/\{petId\}$/,
      );
      expect(deprecationOf(answer.headers)).toEqual(deprecatedFor(id));
    }
  });

  it('serves GET /v2/pets/{petId}, its successor, unmarked and working after the sunset', async ({
    mongo,
  }) => {
    await using pets = await startTestPets(mongo, {
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answer = await pets.call('GET', '/v2/pets/1');
    expect(answer).toMatchObject({ status: 200, body: { id: 1, name: 'Rex' } });
    expect(deprecationOf(answer.headers)).toEqual({
      deprecation: null,
      sunset: null,
      link: null,
    });
    const missing = await pets.call('GET', '/v2/pets/42');
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(missing.headers.get('deprecation')).toBeNull();
  });

  it('leaves the other operations on pets unmarked and working after the sunset', async ({
    mongo,
  }) => {
    await using pets = await startTestPets(mongo, {
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    await seedCategory(pets, 'Dogs');
    await seedPet(pets, { name: 'Rex', categoryId: 1 });
    const answers = [
      await pets.call('GET', '/v1/pets'),
      await pets.call('PATCH', '/v1/pets/1', { body: { name: 'Max' } }),
      await pets.call('GET', '/internal/pets/1', { as: 'service' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('deprecation')).toBeNull();
      expect(answer.headers.get('sunset')).toBeNull();
    }
  });
});
