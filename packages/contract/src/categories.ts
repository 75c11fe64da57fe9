import { IdParamSchema, IdSchema } from './ids.js';
import { trimmedText } from './text.js';
import { z } from './zod.js';
import { initContract } from '@ts-rest/core';
import { BODY_ERRORS, POST_ERRORS, v1Errors } from './errors.js';
import { at, post, type RouteMetadata } from './contract-operations.js';
import { PageQuerySchema } from './pagination.js';
import { requestBody } from './request-body.js';

export const NewCategorySchema = z
  .object({
    name: trimmedText({ min: 1, max: 100 }).openapi({
      description:
        '1–100 characters (Unicode code points) as sent, then trimmed; not blank; unique regardless of case: two names are the same when they match after NFC normalisation and full Unicode case folding (`straße` and `STRASSE`).',
      example: 'Dogs',
    }),
    description: trimmedText({ max: 1000 }).optional().openapi({
      description:
        'Up to 1000 characters (Unicode code points) as sent, then trimmed.',
      example: 'Loyal companions of every size.',
    }),
  })
  .strict()
  .openapi('NewCategory');
export type NewCategory = z.infer<typeof NewCategorySchema>;

// From the shape, as `Pet` is, so that the document shows it flat.
export const CategorySchema = z
  .object({
    ...NewCategorySchema.shape,
    id: IdSchema.openapi({
      description: 'Assigned on creation, never reused.',
    }),
  })
  .openapi('Category');
export type Category = z.infer<typeof CategorySchema>;

const c = initContract();

const read = { service: 'pets', auth: 'key' } satisfies RouteMetadata;
const adminWrite = { ...read, role: 'admin' } satisfies RouteMetadata;

const CategoryPathSchema = z.object({
  categoryId: IdParamSchema.openapi({ description: 'The category’s id.' }),
});

export const categories = c.router({
  listCategories: {
    ...at('GET /categories', read),
    query: PageQuerySchema,
    summary: 'List categories',
    description: 'Categories in id order.',
    responses: {
      200: z.array(CategorySchema),
      ...v1Errors(),
    },
  },
  createCategory: {
    ...post('/categories', adminWrite),
    body: requestBody(NewCategorySchema),
    summary: 'Add a category',
    description:
      'Adds a category; `Location` gives its address. A name already used, in any case, is 409 `conflict`.',
    responses: {
      201: CategorySchema,
      ...v1Errors('forbidden', 'conflict', ...POST_ERRORS),
    },
  },
  getCategory: {
    ...at('GET /categories/:categoryId', read),
    pathParams: CategoryPathSchema,
    summary: 'Get a category',
    description: 'One category by its id.',
    responses: {
      200: CategorySchema,
      ...v1Errors('not_found'),
    },
  },
  replaceCategory: {
    ...at('PUT /categories/:categoryId', adminWrite),
    pathParams: CategoryPathSchema,
    body: requestBody(NewCategorySchema),
    summary: 'Replace a category',
    description:
      'Replaces the name and description; a description left out is removed. A name another category uses is 409 `conflict`.',
    responses: {
      200: CategorySchema,
      ...v1Errors(...BODY_ERRORS, 'forbidden', 'not_found', 'conflict'),
    },
  },
  deleteCategory: {
    ...at('DELETE /categories/:categoryId', adminWrite),
    pathParams: CategoryPathSchema,
    summary: 'Delete a category',
    description:
      'Removes a category no pet uses; while pets use it, 409 `category_in_use`.',
    responses: {
      204: c.noBody(),
      ...v1Errors('forbidden', 'not_found', 'category_in_use'),
    },
  },
});
