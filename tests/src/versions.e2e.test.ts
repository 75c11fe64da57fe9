import { callHttp } from '@petstore/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** The `rel="successor-version"` target of a `Link` header. */
function successorOf(link: string | null): string | undefined {
  return /<([^>]+)>; rel="successor-version"/.exec(link ?? '')?.[1];
}

describe('/v2 beside /v1, through the gateway', () => {
  let api: TestStack;
  let petId: number;

  beforeAll(async () => {
    api = await startTestStack();
    const category = await api.admin.categories.createCategory({
      body: { name: 'Dogs' },
    });
    const categoryId = category.status === 201 ? category.body.id : -1;
    const pet = await api.admin.pets.createPet({
      body: { name: 'Rex', categoryId },
    });
    petId = pet.status === 201 ? pet.body.id : -1;
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
  });

  it('links the deprecated read to its successor, which answers the same pet unmarked', async () => {
    const apiKey = api.stack.adminApiKey;
    const deprecated = await callHttp(api.url, 'GET', `/v1/pets/${petId}`, {
      apiKey,
    });
    expect(deprecated.status).toBe(200);
    expect(deprecated.headers.get('deprecation')).toMatch(/^@\d+$/);
    const successor = successorOf(deprecated.headers.get('link'));
    expect(successor).toBe(`/v2/pets/${petId}`);

    const current = await callHttp(api.url, 'GET', successor ?? '', { apiKey });
    expect(current).toMatchObject({
      status: 200,
      body: deprecated.body as object,
    });
    for (const header of ['deprecation', 'sunset', 'link']) {
      expect(current.headers.get(header), header).toBeNull();
    }
  });

  it('answers API-Version 1.0.0 under /v1, 2.0.0 under /v2 and at the root', async () => {
    const apiKey = api.stack.adminApiKey;
    const versionOf = async (path: string, key?: string) =>
      (await callHttp(api.url, 'GET', path, { apiKey: key })).headers.get(
        'api-version',
      );
    expect(await versionOf('/v1/pets', apiKey)).toBe('1.0.0');
    expect(await versionOf('/v1/pets')).toBe('1.0.0');
    expect(await versionOf('/v2/pets', apiKey)).toBe('2.0.0');
    expect(await versionOf('/v2/pets')).toBe('2.0.0');
    expect(await versionOf('/v2/nothing')).toBe('2.0.0');
    expect(await versionOf('/health')).toBe('2.0.0');
    expect(await versionOf('/openapi.json')).toBe('2.0.0');
  });

  it('signs up through POST /v2/accounts without a key', async () => {
    const answer = await callHttp(api.url, 'POST', '/v2/accounts', {
      body: { email: 'v2-signup@example.com' },
    });
    expect(answer).toMatchObject({ status: 201, body: { role: 'customer' } });
    expect(answer.headers.get('api-version')).toBe('2.0.0');
  });
});

describe('after the sunset of GET /v1/pets/{petId}', () => {
  let api: TestStack;

  beforeAll(async () => {
    api = await startTestStack({ GET_PET_SUNSET: '2020-01-01T00:00:00Z' });
  });
  afterAll(async () => {
    await api?.[Symbol.asyncDispose]();
  });

  it('answers a created pet at its Location, and names it in the 410 of the retired read', async () => {
    const apiKey = api.stack.adminApiKey;
    const category = await callHttp<{ id: number }>(
      api.url,
      'POST',
      '/v1/categories',
      {
        apiKey,
        body: { name: 'Cats' },
      },
    );
    const created = await callHttp<{ id: number }>(
      api.url,
      'POST',
      '/v1/pets',
      {
        apiKey,
        body: { name: 'Tom', categoryId: category.body.id },
      },
    );
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toBe(`/v2/pets/${created.body.id}`);

    const read = await callHttp(api.url, 'GET', location, { apiKey });
    expect(read).toMatchObject({ status: 200, body: created.body });

    const retired = await callHttp<{ message: string }>(
      api.url,
      'GET',
      `/v1/pets/${created.body.id}`,
      { apiKey },
    );
    expect(retired).toMatchObject({ status: 410, body: { code: 'gone' } });
    expect(retired.body.message).toContain('GET /v2/pets/{petId}');
    expect(successorOf(retired.headers.get('link'))).toBe(location);
  });
});
