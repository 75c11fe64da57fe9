import { describe, expect, it } from 'vitest';
import {
  ListPetsQuerySchema,
  NewPetSchema,
  PetPatchSchema,
  PetStatusSchema,
} from './pets.js';

describe('pet schemas', () => {
  it.each(['available', 'pending', 'sold'])(
    'accepts the status %s',
    (status) => {
      expect(PetStatusSchema.parse(status)).toBe(status);
    },
  );

  it.each(['Available', 'adopted', ''])('rejects the status %j', (status) => {
    expect(PetStatusSchema.safeParse(status).success).toBe(false);
  });

  it('trims a name and rejects one that is blank or longer than 100 characters', () => {
    expect(NewPetSchema.parse({ name: '  Rex ', categoryId: 1 }).name).toBe(
      'Rex',
    );
    expect(NewPetSchema.safeParse({ name: '   ', categoryId: 1 }).success).toBe(
      false,
    );
    expect(
      NewPetSchema.safeParse({ name: 'x'.repeat(101), categoryId: 1 }).success,
    ).toBe(false);
  });

  it('requires a name and a category for a new pet, but nothing for a patch', () => {
    expect(NewPetSchema.safeParse({ name: 'Rex' }).success).toBe(false);
    expect(PetPatchSchema.parse({})).toEqual({});
    expect(PetPatchSchema.parse({ status: 'sold' })).toEqual({
      status: 'sold',
    });
  });

  it('reads a query with one or several statuses, a category and the page defaults', () => {
    expect(
      ListPetsQuerySchema.parse({
        status: ['available', 'pending'],
        categoryId: '3',
      }),
    ).toEqual({ status: ['available', 'pending'], categoryId: 3n, limit: 20 });
    expect(ListPetsQuerySchema.safeParse({ status: ['lost'] }).success).toBe(
      false,
    );
    expect(ListPetsQuerySchema.safeParse({ categoryId: '-1' }).success).toBe(
      false,
    );
  });
});
