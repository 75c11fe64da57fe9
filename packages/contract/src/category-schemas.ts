import { IdSchema } from './ids.js';
import { z } from './zod.js';

export const NewCategorySchema = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({
      description: '1–100 characters, trimmed; unique regardless of case.',
      example: 'Dogs',
    }),
    description: z.string().trim().max(1000).optional().openapi({
      description: 'Up to 1000 characters, trimmed.',
      example: 'Loyal companions of every size.',
    }),
  })
  .openapi('NewCategory');
export type NewCategory = z.infer<typeof NewCategorySchema>;

export const CategorySchema = NewCategorySchema.extend({
  id: IdSchema.openapi({ description: 'Assigned on creation, never reused.', example: 1 }),
}).openapi('Category');
export type Category = z.infer<typeof CategorySchema>;
