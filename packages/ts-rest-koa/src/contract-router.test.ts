import { serveHttp } from '@petstore/testkit';
import { initContract } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routerPath } from './contract-router.js';
import { createKoaRouter } from './create-koa-router.js';
import { startBooks } from './test-support/start-books.js';
import { createTestApp } from './test-support/test-app.js';

describe('routerPath', () => {
  it('keeps literal segments and plain parameters as they are', () => {
    expect(routerPath('/v1/pets/:petId/status')).toBe('/v1/pets/:petId/status');
    expect(routerPath('/openapi.json')).toBe('/openapi.json');
  });

  it("turns ts-rest's optional last parameter into a path-to-regexp group", () => {
    expect(routerPath('/v1/things/:id?')).toBe('/v1/things{/:id}');
  });

  it('escapes what path-to-regexp reads as syntax, and quotes unusual parameter names', () => {
    expect(routerPath('/files(1)/*/a+b')).toBe('/files\\(1\\)/\\*/a\\+b');
    expect(routerPath('/shelves/:shelf-id')).toBe('/shelves/:"shelf-id"');
  });
});

describe('matching', () => {
  const notFound = { code: 'route_not_found', status: 404 };

  it('answers a path only as the contract spells it: case, trailing slash and segments', async () => {
    await using server = await startBooks();
    for (const path of [
      '/Books',
      '/books/',
      '/books/1/',
      '/books//1',
      '/books/1/2',
      '/books%2F1',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject(notFound);
    }
  });

  it('hands the handler path parameters percent-decoded', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/%32`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 2 });
  });

  it('passes a parameter that does not decode as it came, for its schema to refuse', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'validation_failed',
      details: [
        { path: 'params.bookId', message: 'Expected number, received nan' },
      ],
    });
  });

  const c = initContract();
  const responses = {
    200: z.object({ route: z.string(), id: z.string().optional() }),
  };
  const thingsContract = c.router({
    searchThings: { method: 'GET', path: '/things/search', responses },
    listOrGetThing: { method: 'GET', path: '/things/:id?', responses },
    deleteThing: { method: 'DELETE', path: '/things/:id', responses },
  });
  const startThings = () =>
    serveHttp(
      createTestApp(
        createKoaRouter(thingsContract, {
          searchThings: () => ({
            status: 200,
            body: { route: 'searchThings' },
          }),
          listOrGetThing: ({ params }) => ({
            status: 200,
            body: { route: 'listOrGetThing', ...params },
          }),
          deleteThing: ({ params }) => ({
            status: 200,
            body: { route: 'deleteThing', ...params },
          }),
        }),
      ).callback(),
    );

  it('lets the first operation of the contract that matches answer', async () => {
    await using server = await startThings();
    expect(await (await fetch(`${server.url}/things/search`)).json()).toEqual({
      route: 'searchThings',
    });
    expect(await (await fetch(`${server.url}/things/7`)).json()).toEqual({
      route: 'listOrGetThing',
      id: '7',
    });
  });

  it('serves a route ending in an optional parameter with and without it', async () => {
    await using server = await startThings();
    expect(await (await fetch(`${server.url}/things`)).json()).toEqual({
      route: 'listOrGetThing',
    });
    const withoutId = await fetch(`${server.url}/things`, { method: 'DELETE' });
    expect(withoutId.status).toBe(405);
    expect(withoutId.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await fetch(`${server.url}/things/`)).status).toBe(404);
    expect((await fetch(`${server.url}/things/7/8`)).status).toBe(404);
  });
});
