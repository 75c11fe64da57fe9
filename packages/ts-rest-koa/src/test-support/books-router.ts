import type { Router } from '@koa/router';
import {
  createKoaRouter,
  type KoaRouterOptions,
} from '../create-koa-router.js';
import { booksContract, type Book } from './books-contract.js';

/** What the store keeps: a book plus a field the contract never shows. */
export type StoredBook = Book & { shelf: string };

export function seedBooks(): Map<number, StoredBook> {
  return new Map([
    [
      1,
      {
        id: 1,
        title: 'Middlemarch',
        genre: 'fiction',
        quantity: 3,
        shelf: 'A1',
      },
    ],
    [2, { id: 2, title: 'Ariel', genre: 'poetry', quantity: 1, shelf: 'B2' }],
    [3, { id: 3, title: 'SPQR', genre: 'history', quantity: 0, shelf: 'C3' }],
  ]);
}

const notFound = (bookId: number) =>
  ({
    status: 404,
    body: {
      code: 'not_found',
      message: `[books] book ${bookId} not found`,
      status: 404,
    },
  }) as const;

/** The books contract over an in-memory map, which tests read to see what handlers received. */
export function createBooksRouter(
  options: KoaRouterOptions,
  books: Map<number, StoredBook> = seedBooks(),
): Router {
  return createKoaRouter(
    booksContract,
    {
      listBooks: ({ query }) => {
        const matching = [...books.values()].filter(
          (book) =>
            query.genre === undefined || query.genre.includes(book.genre),
        );
        return { status: 200, body: matching.slice(0, query.limit) };
      },
      getBook: ({ params }) => {
        const book = books.get(params.bookId);
        return book ? { status: 200, body: book } : notFound(params.bookId);
      },
      createBook: ({ body, headers, ctx }) => {
        const id = Math.max(0, ...books.keys()) + 1;
        const book = { ...body, id, shelf: headers['x-shelf'] };
        books.set(id, book);
        ctx.set('Location', `/books/${id}`);
        return { status: 201, body: book };
      },
      replaceBook: ({ params, body }) => {
        const current = books.get(params.bookId);
        if (!current) {
          return notFound(params.bookId);
        }
        const book = { ...current, ...body };
        books.set(book.id, book);
        return { status: 200, body: book };
      },
      deleteBook: ({ params }) => {
        if (!books.delete(params.bookId)) {
          return notFound(params.bookId);
        }
        return { status: 204, body: undefined };
      },
      reviews: {
        listReviews: async () =>
          Promise.resolve({ status: 200, body: [{ stars: 5 }] }),
      },
      // Deliberately broken: a body the contract rejects, to exercise response validation.
      getBestseller: () => ({
        status: 200,
        body: { id: 1, title: '', genre: 'cookery' } as unknown as Book,
      }),
    },
    options,
  );
}
