import { serveHttp, type ServedHttp } from '@petstore/testkit';
import type { KoaRouterOptions } from '../create-koa-router.js';
import {
  createBooksRouter,
  seedBooks,
  type StoredBook,
} from './books-router.js';
import { createTestApp } from './test-app.js';

/** The books test app over real HTTP, validating responses unless told otherwise. */
export function startBooks(
  options: KoaRouterOptions = { validateResponses: true },
  books: Map<number, StoredBook> = seedBooks(),
): Promise<ServedHttp> {
  return serveHttp(createTestApp(createBooksRouter(options, books)).callback());
}
