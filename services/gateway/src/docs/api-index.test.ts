import { describe, expect } from 'vitest';
import { startTestGateway, it } from '../test-support/gateway-harness.js';
import type { ApiIndex } from './docs-page.js';

type Document = {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

describe('the index at /, /v2 and /v1', () => {
  it('answers each with where the reference is and every operation of the document', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: { PUBLIC_URL: 'https://api.example.com' },
    });
    const root = await fetch(`${gateway.url}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toMatch(/^application\/json/);
    expect(root.headers.get('api-version')).toBe('2.0.0');
    const index = (await root.json()) as ApiIndex;
    expect(index).toMatchObject({
      name: 'Petstore API',
      version: '2.0.0',
      docs: 'https://api.example.com/docs',
      openapi: 'https://api.example.com/openapi.json',
    });

    const v2 = await fetch(`${gateway.url}/v2`);
    expect(v2.status).toBe(200);
    expect(v2.headers.get('api-version')).toBe('2.0.0');
    expect(await v2.json()).toEqual(index);
    const v1 = await fetch(`${gateway.url}/v1`);
    expect(v1.status).toBe(200);
    expect(v1.headers.get('api-version')).toBe('1.0.0');
    expect(await v1.json()).toEqual(index);

    const document = (await (
      await fetch(`${gateway.url}/openapi.json`)
    ).json()) as Document;
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => method !== 'parameters')
        .map(
          ([method, operation]) =>
            `${method.toUpperCase()} ${path} ${operation.operationId}`,
        ),
    );
    expect(
      index.operations.map(
        ({ method, path, operationId }) => `${method} ${path} ${operationId}`,
      ),
    ).toEqual(documented);
    expect(documented.length).toBeGreaterThan(20);
  });

  it('says which operations need a key and which is deprecated', async ({
    gateway,
  }) => {
    const { operations } = (await (
      await fetch(`${gateway.url}/v1`)
    ).json()) as ApiIndex;
    const byId = new Map(
      operations.map((operation) => [operation.operationId, operation]),
    );
    expect(byId.get('listPets')).toEqual({
      method: 'GET',
      path: '/v2/pets',
      operationId: 'listPets',
      summary: expect.any(String) as string,
      needsApiKey: true,
    });
    expect(byId.get('createAccount')).toMatchObject({
      method: 'POST',
      needsApiKey: false,
    });
    expect(byId.get('health')).toMatchObject({
      path: '/health',
      needsApiKey: false,
    });
    expect(byId.get('listPetsV1')).toMatchObject({
      path: '/v1/pets',
      needsApiKey: true,
    });
    expect(byId.get('getPet')).toEqual(
      expect.not.objectContaining({ deprecated: true }),
    );
    expect(byId.get('getPetV1')).toMatchObject({
      path: '/v1/pets/{petId}',
      deprecated: true,
    });
    expect(operations.filter((operation) => operation.deprecated)).toHaveLength(
      1,
    );
  });

  it('answers HEAD without a body, and another method with 405 and Allow', async ({
    gateway,
  }) => {
    const head = await fetch(`${gateway.url}/v1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');

    for (const path of ['/', '/v1']) {
      const post = await fetch(`${gateway.url}${path}`, { method: 'POST' });
      expect(post.status, path).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      expect(await post.json()).toMatchObject({
        code: 'method_not_allowed',
        status: 405,
      });
    }
  });
});
