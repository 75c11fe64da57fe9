import { z } from './zod.js';

/** The query of every list: a page size and the opaque cursor of the page to start at. */
export const PageQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20).openapi({
      description: 'How many items to return, 1–100.',
      example: 20,
    }),
    // No example: a cursor is only valid as the API issued it, and samples are built from examples.
    cursor: z.string().min(1).max(512).optional().openapi({
      description:
        'Where the page starts: the `cursor` of the `Link: <…>; rel="next"` header of the previous page.',
    }),
  })
  .strict();
