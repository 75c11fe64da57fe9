import type { contract } from '@petstore/contract';
import { decodeCursor, pageOf } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import { requireAdmin } from './access.js';
import type { CategoriesRepository } from './categories-repository.js';

/** `contract.categories`: the categories pets belong to. */
export function categoryRoutes(
  categories: CategoriesRepository,
): RouterImplementation<typeof contract.categories> {
  return {
    listCategories: async ({ query, ctx }) => {
      const items = await categories.list({
        after: decodeCursor(query.cursor),
        limit: query.limit + 1,
      });
      return { status: 200, body: pageOf(ctx, items, query.limit) };
    },
    createCategory: async ({ body, ctx }) => {
      requireAdmin(ctx, 'add a category');
      const category = await categories.create(body);
      ctx.set('Location', `/v1/categories/${category.id}`);
      return { status: 201, body: category };
    },
    getCategory: async ({ params }) => ({
      status: 200,
      body: await categories.get(params.categoryId),
    }),
    replaceCategory: async ({ params, body, ctx }) => {
      requireAdmin(ctx, 'replace a category');
      return { status: 200, body: await categories.replace(params.categoryId, body) };
    },
    deleteCategory: async ({ params, ctx }) => {
      requireAdmin(ctx, 'delete a category');
      await categories.delete(params.categoryId);
      return { status: 204, body: undefined };
    },
  };
}
