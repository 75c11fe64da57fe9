import { IdParamSchema, IdSchema } from './ids.js';
import { PageQuerySchema } from './pagination.js';
import { lengthInCodePoints, NOT_BLANK_PATTERN } from './text.js';
import { z } from './zod.js';

export const PetStatusSchema = z.enum(['available', 'pending', 'sold']).openapi('PetStatus', {
  description:
    'Once a pet has stock, the store derives it: available while stock lasts, pending while orders are open, then sold.',
  example: 'available',
});
export type PetStatus = z.infer<typeof PetStatusSchema>;

export const NewPetSchema = z
  .object({
    name: lengthInCodePoints(z.string().trim(), { min: 1, max: 100 }).openapi({
      pattern: NOT_BLANK_PATTERN,
      description: '1–100 characters (Unicode code points), trimmed.',
      example: 'Rex',
    }),
    categoryId: IdSchema.openapi({ description: 'An existing category.', example: 1 }),
    status: PetStatusSchema.optional(),
  })
  .openapi('NewPet', { description: 'A pet to add; without a status it is available.' });
export type NewPet = z.infer<typeof NewPetSchema>;

export const PetSchema = NewPetSchema.extend({
  id: IdSchema.openapi({ description: 'Assigned on creation, never reused.', example: 1 }),
  status: PetStatusSchema,
}).openapi('Pet', { description: 'A pet of the catalogue; its status is always present.' });
export type Pet = z.infer<typeof PetSchema>;

export const PetsSchema = z.array(PetSchema).openapi('Pets');
export type Pets = z.infer<typeof PetsSchema>;

export const PetPatchSchema = NewPetSchema.partial().openapi('PetPatch', {
  description: 'The fields of a pet to change; the others keep their values.',
});
export type PetPatch = z.infer<typeof PetPatchSchema>;

export const ListPetsQuerySchema = PageQuerySchema.extend({
  status: z
    .array(PetStatusSchema)
    .min(1)
    .optional()
    .openapi({
      description:
        'Only pets in one of these statuses; repeat it for several (`status=available&status=pending`).',
      example: ['available'],
    }),
  categoryId: IdParamSchema.optional().openapi({ description: 'Only pets of this category.' }),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuerySchema>;
