import { IdSchema } from './ids.js';
import { lengthInCodePoints, NOT_BLANK_PATTERN } from './text.js';
import { z } from './zod.js';

export const NewCategorySchema = z
  .object({
    name: lengthInCodePoints(z.string().trim(), { min: 1, max: 100 }).openapi({
      pattern: NOT_BLANK_PATTERN,
      description:
        '1–100 characters (Unicode code points), trimmed; unique regardless of case: two names are the same when they match after NFC normalisation and full Unicode case folding (`straße` and `STRASSE`).',
      example: 'Dogs',
    }),
    description: lengthInCodePoints(z.string().trim(), { max: 1000 }).optional().openapi({
      description: 'Up to 1000 characters (Unicode code points), trimmed.',
      example: 'Loyal companions of every size.',
    }),
  })
  .openapi('NewCategory');
export type NewCategory = z.infer<typeof NewCategorySchema>;

export const CategorySchema = NewCategorySchema.extend({
  id: IdSchema.openapi({ description: 'Assigned on creation, never reused.', example: 1 }),
}).openapi('Category');
export type Category = z.infer<typeof CategorySchema>;
