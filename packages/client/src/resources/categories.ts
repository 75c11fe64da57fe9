import type { ApiPromise } from '../api-promise.js';
import { list, type List } from '../auto-pagination.js';
import { path } from '../path.js';
import type { RequestOptions, RequestSender } from '../request-sender.js';
import type {
  Category,
  Empty,
  ListCategoriesQuery,
  NewCategory,
  WithRequestId,
} from '../types.js';

/** The categories of the catalogue. Reading needs any key; writing needs an admin key. */
export class Categories {
  constructor(private readonly sender: RequestSender) {}

  /**
   * List categories
   *
   * In id order; iterating reads every page.
   * @operationId listCategories
   */
  list(query?: ListCategoriesQuery, options?: RequestOptions): List<Category> {
    return list(this.sender, { path: '/v2/categories', query }, options);
  }

  /**
   * Add a category
   *
   * A name already used, in any case, is 409 `conflict`.
   * @operationId createCategory
   */
  create(
    body: NewCategory,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Category>> {
    return this.sender.request(
      { method: 'POST', path: '/v2/categories', body },
      options,
    );
  }

  /**
   * Get a category
   *
   * @operationId getCategory
   */
  get(
    id: number,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Category>> {
    return this.sender.request(
      { method: 'GET', path: path`/v2/categories/${id}` },
      options,
    );
  }

  /**
   * Replace a category
   *
   * A description left out is removed; a name another category uses is 409 `conflict`.
   * @operationId replaceCategory
   */
  replace(
    id: number,
    body: NewCategory,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Category>> {
    return this.sender.request(
      { method: 'PUT', path: path`/v2/categories/${id}`, body },
      options,
    );
  }

  /**
   * Delete a category
   *
   * While pets use it, 409 `category_in_use`.
   * @operationId deleteCategory
   */
  delete(id: number, options?: RequestOptions): ApiPromise<Empty> {
    return this.sender.requestEmpty(
      { method: 'DELETE', path: path`/v2/categories/${id}` },
      options,
    );
  }
}
