import { serveHttp } from '@petstore/testkit';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { createBooksRouter } from './test-support/books-router.js';
import { startBooks } from './test-support/start-books.js';

describe('methods and unknown paths', () => {
  it('answers 405 with Allow when the path exists with another method', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/1`, { method: 'PATCH' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(
      'DELETE, GET, HEAD, OPTIONS, PUT',
    );
    expect(await response.json()).toEqual({
      code: 'method_not_allowed',
      message:
        'PATCH is not allowed here; allowed: DELETE, GET, HEAD, OPTIONS, PUT',
      status: 405,
    });
  });

  it("gives Koa's default error handler the Allow header through the error's headers", async () => {
    const app = new Koa();
    app.silent = true;
    app.use(createBooksRouter({}).routes());
    await using server = await serveHttp(app.callback());
    const response = await fetch(`${server.url}/books`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
  });

  it('answers HEAD on a GET route without a body', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/1`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('leaves an unknown path to the next middleware, which answers 404 route_not_found', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/authors`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: 'route_not_found',
      message: 'no route for POST /authors',
      status: 404,
    });
  });
});
