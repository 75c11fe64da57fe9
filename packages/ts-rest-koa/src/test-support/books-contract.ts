import { initContract } from '@ts-rest/core';
import { z } from 'zod';

const c = initContract();

export const GenreSchema = z.enum(['fiction', 'poetry', 'history']);

export const BookSchema = z.object({
  id: z.number().int(),
  title: z.string().min(1),
  genre: GenreSchema,
  quantity: z.number().int().min(0),
});
export type Book = z.infer<typeof BookSchema>;

export const NewBookSchema = BookSchema.omit({ id: true });

export const ErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  status: z.number().int(),
  details: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional(),
});

const BookIdSchema = z.object({ bookId: z.coerce.number().int().positive() });

export const booksContract = c.router({
  listBooks: {
    method: 'GET',
    path: '/books',
    query: z.object({
      genre: z.array(GenreSchema).optional(),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
    responses: { 200: z.array(BookSchema), 400: ErrorSchema },
  },
  getBook: {
    method: 'GET',
    path: '/books/:bookId',
    pathParams: BookIdSchema,
    responses: { 200: BookSchema, 400: ErrorSchema, 404: ErrorSchema },
  },
  createBook: {
    method: 'POST',
    path: '/books',
    headers: z.object({
      'x-shelf': z.string().regex(/^[A-Z]\d$/, 'must look like B2'),
    }),
    body: NewBookSchema,
    responses: { 201: BookSchema, 400: ErrorSchema },
  },
  replaceBook: {
    method: 'PUT',
    path: '/books/:bookId',
    pathParams: BookIdSchema,
    body: NewBookSchema,
    responses: { 200: BookSchema, 400: ErrorSchema, 404: ErrorSchema },
  },
  deleteBook: {
    method: 'DELETE',
    path: '/books/:bookId',
    pathParams: BookIdSchema,
    body: c.noBody(),
    responses: { 204: c.noBody(), 400: ErrorSchema, 404: ErrorSchema },
  },
  reviews: c.router({
    listReviews: {
      method: 'GET',
      path: '/books/:bookId/reviews',
      pathParams: BookIdSchema,
      responses: {
        200: z.array(z.object({ stars: z.number().int().min(1).max(5) })),
      },
    },
  }),
  getBestseller: {
    method: 'GET',
    path: '/bestseller',
    responses: { 200: BookSchema },
  },
});
