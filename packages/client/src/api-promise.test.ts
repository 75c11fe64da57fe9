import { describe, expect, it } from 'vitest';
import { ApiPromise } from './api-promise.js';
import { startServer } from './test-support/test-server.js';
import { testClient } from './test-support/test-client.js';

const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const rateLimit = {
  'ratelimit-limit': '100',
  'ratelimit-remaining': '99',
  'ratelimit-reset': '1',
};

describe('withResponse', () => {
  it('gives the result with the response, its status and rate-limit headers', async () => {
    await using server = await startServer({
      status: 201,
      headers: {
        ...rateLimit,
        'x-request-id': 'req-1',
        location: '/v2/pets/1',
      },
      body: pet,
    });
    const { client } = testClient(server.baseUrl);

    const { data, response } = await client.pets
      .create({ name: 'Rex', categoryId: 1 })
      .withResponse();

    expect(data).toEqual(pet);
    expect(data.requestId).toBe('req-1');
    expect(response.status).toBe(201);
    expect(response.headers.get('ratelimit-remaining')).toBe('99');
    expect(response.headers.get('location')).toBe('/v2/pets/1');
    expect(await server.received()).toHaveLength(1);
  });

  it('gives the response of a 204 and of a list page', async () => {
    await using server = await startServer(
      { status: 204, headers: rateLimit },
      {
        status: 200,
        headers: { link: '</v1/pets?cursor=c2>; rel="next"' },
        body: [pet],
      },
    );
    const { client } = testClient(server.baseUrl);

    const deleted = await client.pets.delete(1).withResponse();
    const listed = await client.pets.list().firstPage().withResponse();

    expect(deleted.response.status).toBe(204);
    expect(deleted.response.headers.get('ratelimit-limit')).toBe('100');
    expect(listed.data.data).toEqual([pet]);
    expect(listed.data.nextCursor).toBe('c2');
    expect(listed.response.headers.get('link')).toContain('cursor=c2');
    expect(
      (await server.received()).map(({ method, url }) => `${method} ${url}`),
    ).toEqual(['DELETE /v2/pets/1', 'GET /v2/pets']);
  });

  it('sends one request however the result is read', async () => {
    await using server = await startServer({ status: 200, body: pet });
    const { client } = testClient(server.baseUrl);

    const call = client.pets.get(1);
    const [data, { response }] = await Promise.all([call, call.withResponse()]);

    expect(call).toBeInstanceOf(Promise);
    expect(call).toBeInstanceOf(ApiPromise);
    expect(data).toEqual(pet);
    expect(response.status).toBe(200);
    expect(await server.received()).toHaveLength(1);
  });

  it('rejects as the call does, and chains into plain Promises', async () => {
    await using server = await startServer({
      status: 404,
      body: { code: 'not_found', message: 'pet 7 not found', status: 404 },
    });
    const { client } = testClient(server.baseUrl);

    const call = client.pets.get(7);
    const chained = call.catch((error: unknown) => (error as Error).message);

    await expect(call.withResponse()).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(chained).resolves.toBe('pet 7 not found');
    expect(chained).not.toBeInstanceOf(ApiPromise);
    await expect(call.finally(() => undefined)).rejects.toMatchObject({
      status: 404,
    });
  });
});
