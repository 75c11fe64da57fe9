import { describe, expect, it } from 'vitest';
import { createKoaRouter } from './create-koa-router.js';
import { booksContract } from './test-support/books-contract.js';
import { seedBooks } from './test-support/books-router.js';
import { startBooks } from './test-support/start-books.js';

const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json', 'x-shelf': 'D4' },
  body: JSON.stringify(body),
});

describe('createKoaRouter', () => {
  it('coerces a path id to the number the schema declares', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/2`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: 2,
      title: 'Ariel',
      genre: 'poetry',
      quantity: 1,
    });
  });

  it('answers the 404 a handler returns', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/99`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: 'not_found',
      message: '[books] book 99 not found',
      status: 404,
    });
  });

  it('accepts a single value for an array query field', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books?genre=poetry`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([expect.objectContaining({ id: 2 })]);
  });

  it('accepts repeated values for an array query field', async () => {
    await using server = await startBooks();
    const response = await fetch(
      `${server.url}/books?genre=poetry&genre=history`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      expect.objectContaining({ id: 2 }),
      expect.objectContaining({ id: 3 }),
    ]);
  });

  it('coerces query numbers and applies schema defaults', async () => {
    await using server = await startBooks();
    const limited = await fetch(`${server.url}/books?limit=1`);
    expect(await limited.json()).toHaveLength(1);
    const defaulted = await fetch(`${server.url}/books`);
    expect(await defaulted.json()).toHaveLength(3);
  });

  it('answers 400 validation_failed listing every failing part of the request', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/abc`, {
      method: 'PUT',
      ...json({ title: '', genre: 'fiction', quantity: -1 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'validation_failed',
      message: expect.stringContaining('params.bookId') as unknown,
      status: 400,
      details: [
        { path: 'params.bookId', message: 'Expected number, received nan' },
        {
          path: 'body.title',
          message: 'String must contain at least 1 character(s)',
        },
        {
          path: 'body.quantity',
          message: 'Number must be greater than or equal to 0',
        },
      ],
    });
  });

  it('reports query issues with their field path', async () => {
    await using server = await startBooks();
    const response = await fetch(
      `${server.url}/books?limit=0&genre=poetry&genre=cookery`,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details: { path: string }[] };
    expect(body.details.map(({ path }) => path)).toEqual([
      'query.genre.1',
      'query.limit',
    ]);
  });

  it('answers 400 when a declared header is malformed', async () => {
    await using server = await startBooks();
    const book = { title: 'Beloved', genre: 'fiction', quantity: 2 };
    const rejected = await fetch(`${server.url}/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shelf': 'top' },
      body: JSON.stringify(book),
    });
    expect(rejected.status).toBe(400);
    expect(await rejected.json()).toMatchObject({
      details: [{ path: 'headers.x-shelf', message: 'must look like B2' }],
    });
  });

  it('answers 201 with the created book and the Location the handler set', async () => {
    const books = seedBooks();
    await using server = await startBooks({ validateResponses: true }, books);
    const response = await fetch(`${server.url}/books`, {
      method: 'POST',
      ...json({ title: 'Beloved', genre: 'fiction', quantity: 2 }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/books/4');
    expect(await response.json()).toEqual({
      id: 4,
      title: 'Beloved',
      genre: 'fiction',
      quantity: 2,
    });
    expect(books.get(4)?.shelf).toBe('D4');
  });

  it('drops body properties the contract does not declare before the handler sees them', async () => {
    const books = seedBooks();
    await using server = await startBooks({ validateResponses: true }, books);
    await fetch(`${server.url}/books`, {
      method: 'POST',
      ...json({
        title: 'Beloved',
        genre: 'fiction',
        quantity: 2,
        isbn: '978-1400033416',
      }),
    });
    expect(books.get(4)).toEqual({
      id: 4,
      title: 'Beloved',
      genre: 'fiction',
      quantity: 2,
      shelf: 'D4',
    });
  });

  it('answers 204 without a body', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/1`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.headers.get('content-type')).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('serves routes of nested routers', async () => {
    await using server = await startBooks();
    const response = await fetch(`${server.url}/books/1/reviews`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ stars: 5 }]);
  });

  it('fails fast when the implementation misses a handler', () => {
    // @ts-expect-error the implementation is deliberately incomplete
    expect(() => createKoaRouter(booksContract, { reviews: {} })).toThrow(
      '[ts-rest-koa] no handler for route listBooks',
    );
  });
});
