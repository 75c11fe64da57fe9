import { describe, expectTypeOf, it } from 'vitest';
import type { RouteHandler, RouteResponse } from './route-handler.js';
import type { Book, booksContract } from './test-support/books-contract.js';

type GetBook = typeof booksContract.getBook;
type ListBooks = typeof booksContract.listBooks;

const book: Book = {
  id: 1,
  title: 'Middlemarch',
  genre: 'fiction',
  quantity: 3,
};

describe('handler types', () => {
  it('gives handlers the parsed types of the request parts', () => {
    expectTypeOf<
      Parameters<RouteHandler<GetBook>>[0]['params']
    >().toEqualTypeOf<{
      bookId: number;
    }>();
    expectTypeOf<
      Parameters<RouteHandler<ListBooks>>[0]['query']
    >().toEqualTypeOf<{
      genre?: ('fiction' | 'poetry' | 'history')[] | undefined;
      limit: number;
    }>();
  });

  it('accepts only the statuses and bodies the contract declares', () => {
    const valid: RouteHandler<GetBook> = () => ({ status: 200, body: book });
    const undeclaredStatus: RouteHandler<GetBook> = () => ({
      // @ts-expect-error getBook does not declare 201
      status: 201,
      // @ts-expect-error TypeScript 7 also rejects the body: it fits no declared status
      body: book,
    });
    // @ts-expect-error a 200 body must be a whole book
    const wrongBody: RouteHandler<GetBook> = () => ({
      status: 200,
      body: { id: 1 },
    });
    expectTypeOf(valid).toBeFunction();
    expectTypeOf(undeclaredStatus).toBeFunction();
    expectTypeOf(wrongBody).toBeFunction();
  });

  it('types a status declared without a body as an undefined body', () => {
    type DeleteResponse = RouteResponse<typeof booksContract.deleteBook>;
    expectTypeOf<DeleteResponse['status']>().toEqualTypeOf<204 | 400 | 404>();
    expectTypeOf<
      Extract<DeleteResponse, { status: 204 }>['body']
    >().toEqualTypeOf<undefined>();
  });
});
