import { IdParamSchema, IdSchema } from './ids.js';
import { PageQuerySchema } from './pagination.js';
import { trimmedText } from './text.js';
import { z } from './zod.js';
import { initContract } from '@ts-rest/core';
import { BODY_ERRORS, POST_ERRORS, v1Errors } from './errors.js';
import { at, post, type RouteMetadata } from './contract-operations.js';
import { requestBody } from './request-body.js';

export const PetStatusSchema = z
  .enum(['available', 'pending', 'sold'])
  .openapi('PetStatus', {
    description:
      'Once a pet has stock, the store derives it: available while stock lasts, pending while orders are open, then sold.',
    example: 'available',
  });
export type PetStatus = z.infer<typeof PetStatusSchema>;

export const NewPetSchema = z
  .object({
    name: trimmedText({ min: 1, max: 100 }).openapi({
      description:
        '1–100 characters (Unicode code points) as sent, then trimmed; not blank.',
      example: 'Rex',
    }),
    categoryId: IdSchema.openapi({
      description: 'An existing category.',
    }),
    status: PetStatusSchema.optional(),
  })
  .strict()
  .openapi('NewPet', {
    description: 'A pet to add; without a status it is available.',
  });
export type NewPet = z.infer<typeof NewPetSchema>;

// Built from the shape, not by `extend`, so that the document shows `Pet` flat, not as an `allOf`.
export const PetSchema = z
  .object({
    ...NewPetSchema.shape,
    id: IdSchema.openapi({
      description: 'Assigned on creation, never reused.',
    }),
    status: PetStatusSchema,
  })
  .openapi('Pet', {
    description: 'A pet of the catalogue; its status is always present.',
  });
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
  categoryId: IdParamSchema.optional().openapi({
    description: 'Only pets of this category.',
  }),
});
export type ListPetsQuery = z.infer<typeof ListPetsQuerySchema>;

const c = initContract();

const read = { service: 'pets', auth: 'key' } satisfies RouteMetadata;
const adminWrite = { ...read, role: 'admin' } satisfies RouteMetadata;

/** When `GET /v1/pets/{petId}` stops answering (410 `gone`): its `x-sunset` and `Sunset`. */
export const getPetSunset = '2027-06-30T00:00:00Z';

const PetPathSchema = z.object({
  petId: IdParamSchema.openapi({ description: 'The pet’s id.' }),
});

export const pets = c.router({
  listPets: {
    ...at('GET /pets', read),
    query: ListPetsQuerySchema,
    summary: 'List pets',
    description: 'Pets in id order, filtered by status and category.',
    responses: {
      200: PetsSchema,
      ...v1Errors(),
    },
  },
  createPet: {
    ...post('/pets', adminWrite),
    body: requestBody(NewPetSchema),
    summary: 'Add a pet',
    description:
      'Adds a pet to the catalogue; `Location` gives its address. Its category must exist (422 `unknown_category`).',
    responses: {
      201: PetSchema,
      ...v1Errors('forbidden', 'unknown_category', 'conflict', ...POST_ERRORS),
    },
  },
  getPet: {
    // Deprecated in /v1 only: /v2 serves it as the current way to read a pet (versions.ts).
    ...at('GET /pets/:petId', { ...read, sunset: getPetSunset }),
    pathParams: PetPathSchema,
    summary: 'Get a pet',
    description: 'One pet by its id.',
    deprecated: true,
    responses: {
      200: PetSchema,
      ...v1Errors('not_found', 'gone'),
    },
  },
  replacePet: {
    ...at('PUT /pets/:petId', adminWrite),
    pathParams: PetPathSchema,
    body: requestBody(NewPetSchema),
    summary: 'Replace a pet',
    description:
      'Replaces the name, category and status of a pet (available when left out). Its category must exist (422 `unknown_category`).',
    responses: {
      200: PetSchema,
      ...v1Errors(...BODY_ERRORS, 'forbidden', 'not_found', 'unknown_category'),
    },
  },
  updatePet: {
    ...at('PATCH /pets/:petId', adminWrite),
    pathParams: PetPathSchema,
    body: requestBody(PetPatchSchema),
    summary: 'Update a pet',
    description:
      'Changes the fields given and keeps the others. A new category must exist (422 `unknown_category`).',
    responses: {
      200: PetSchema,
      ...v1Errors(...BODY_ERRORS, 'forbidden', 'not_found', 'unknown_category'),
    },
  },
  deletePet: {
    ...at('DELETE /pets/:petId', adminWrite),
    pathParams: PetPathSchema,
    summary: 'Delete a pet',
    description:
      'Removes a pet from the catalogue; its id is never given again.',
    responses: {
      204: c.noBody(),
      ...v1Errors('forbidden', 'not_found'),
    },
  },
});
