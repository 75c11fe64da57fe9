import { initContract } from '@ts-rest/core';
import { CategorySchema, NewCategorySchema } from './category-schemas.js';
import { v1Errors } from './error-responses.js';
import { IdParamSchema } from './ids.js';
import type { RouteMetadata } from './metadata.js';
import { PageQuerySchema } from './pagination.js';
import { requestBody } from './request-body.js';
import { z } from './zod.js';

const c = initContract();

const read = { service: 'pets', auth: 'key' } satisfies RouteMetadata;
const adminWrite = { ...read, role: 'admin' } satisfies RouteMetadata;

const CategoryPathSchema = z.object({
  categoryId: IdParamSchema.openapi({ description: 'The category’s id.' }),
});

export const categories = c.router({
  listCategories: {
    method: 'GET',
    path: '/v1/categories',
    query: PageQuerySchema,
    summary: 'List categories',
    description: 'Categories in id order. The next page is in the `Link: <…>; rel="next"` header.',
    responses: { 200: z.array(CategorySchema), ...v1Errors(400, 401) },
    metadata: read,
  },
  createCategory: {
    method: 'POST',
    path: '/v1/categories',
    body: requestBody(NewCategorySchema),
    summary: 'Add a category',
    description:
      'Adds a category; `Location` gives its address. A name already used, in any case, is 409 `conflict`.',
    responses: { 201: CategorySchema, ...v1Errors(400, 401, 403, 409, 413, 415) },
    metadata: adminWrite,
  },
  getCategory: {
    method: 'GET',
    path: '/v1/categories/:categoryId',
    pathParams: CategoryPathSchema,
    summary: 'Get a category',
    description: 'One category by its id.',
    responses: { 200: CategorySchema, ...v1Errors(400, 401, 404) },
    metadata: read,
  },
  replaceCategory: {
    method: 'PUT',
    path: '/v1/categories/:categoryId',
    pathParams: CategoryPathSchema,
    body: requestBody(NewCategorySchema),
    summary: 'Replace a category',
    description:
      'Replaces the name and description; a description left out is removed. A name another category uses is 409 `conflict`.',
    responses: { 200: CategorySchema, ...v1Errors(400, 401, 403, 404, 409, 413, 415) },
    metadata: adminWrite,
  },
  deleteCategory: {
    method: 'DELETE',
    path: '/v1/categories/:categoryId',
    pathParams: CategoryPathSchema,
    summary: 'Delete a category',
    description: 'Removes a category no pet uses; while pets use it, 409 `category_in_use`.',
    responses: { 204: c.noBody(), ...v1Errors(400, 401, 403, 404, 409) },
    metadata: adminWrite,
  },
});
