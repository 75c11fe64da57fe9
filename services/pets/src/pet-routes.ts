import type { contract } from '@petstore/contract';
import { decodeCursor, pageOf } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import { requireAdmin } from './access.js';
import type { PetsRepository } from './pets-repository.js';

/** `contract.pets`: the catalogue of pets. */
export function petRoutes(pets: PetsRepository): RouterImplementation<typeof contract.pets> {
  return {
    listPets: async ({ query, ctx }) => {
      const items = await pets.list({
        statuses: query.status,
        categoryId: query.categoryId,
        after: decodeCursor(query.cursor),
        limit: query.limit + 1,
      });
      return { status: 200, body: pageOf(ctx, items, query.limit) };
    },
    createPet: async ({ body, ctx }) => {
      requireAdmin(ctx, 'add a pet');
      const pet = await pets.create(body);
      ctx.set('Location', `/v1/pets/${pet.id}`);
      return { status: 201, body: pet };
    },
    // Deprecated: its headers and its sunset are handled by deprecatedRoute, in front of it.
    getPet: async ({ params }) => ({ status: 200, body: await pets.get(params.petId) }),
    replacePet: async ({ params, body, ctx }) => {
      requireAdmin(ctx, 'replace a pet');
      return { status: 200, body: await pets.replace(params.petId, body) };
    },
    updatePet: async ({ params, body, ctx }) => {
      requireAdmin(ctx, 'update a pet');
      return { status: 200, body: await pets.update(params.petId, body) };
    },
    deletePet: async ({ params, ctx }) => {
      requireAdmin(ctx, 'delete a pet');
      await pets.delete(params.petId);
      return { status: 204, body: undefined };
    },
  };
}
