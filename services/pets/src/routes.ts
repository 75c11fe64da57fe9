import { contract, internalContract, type RecordedEvent } from '@petstore/contract';
import {
  decodeCursor,
  pageOf,
  requireAdmin,
  requireCaller,
  type EventSource,
} from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { Context } from 'koa';
import type { CategoriesRepository } from './categories-repository.js';
import { eventsNotSent } from './errors.js';
import type { PetsRepository } from './pets-repository.js';
import type { PetDocument } from './storage.js';

/** Every route the pets service serves: its part of the public contract and the internal one. */
export const petsServiceContract = {
  pets: contract.pets,
  categories: contract.categories,
  internal: internalContract.pets,
};

/** `pet.status_changed`, kept in the pet by the update that changed its status, and its sending. */
export interface PetEvents {
  source: EventSource<PetDocument>;
  send: (events: RecordedEvent[]) => Promise<void>;
}

export interface RoutesDeps {
  pets: PetsRepository;
  categories: CategoriesRepository;
  events: PetEvents;
}

/** The gateway lets only admins write the catalogue; the service checks again. */
const admin = (ctx: Context, action: string) => requireAdmin(requireCaller(ctx), action);

const created = <T extends { id: number }>(ctx: Context, path: string, resource: T) => {
  ctx.set('Location', `${path}/${resource.id}`);
  return { status: 201 as const, body: resource };
};

const pageQuery = (query: { cursor?: string; limit: number }) => ({
  after: decodeCursor(query.cursor),
  limit: query.limit + 1,
});

/** The handlers of `petsServiceContract`; a write that may record events names its pet. */
export function routes({
  pets,
  categories,
  events,
}: RoutesDeps): RouterImplementation<typeof petsServiceContract> {
  const written = <T extends { id: number }>(pet: T): T => {
    events.source.written(pet.id);
    return pet;
  };
  return {
    pets: {
      listPets: async ({ query, ctx }) => {
        const { status: statuses, categoryId } = query;
        const items = await pets.list({ statuses, categoryId, ...pageQuery(query) });
        return { status: 200, body: pageOf(ctx, items, query.limit) };
      },
      createPet: async ({ body, ctx }) => {
        admin(ctx, 'add a pet');
        return created(ctx, '/v1/pets', await pets.create(body));
      },
      // Deprecated: its headers and its sunset are set by deprecatedRoute, in front of it.
      getPet: async ({ params }) => ({ status: 200, body: await pets.get(params.petId) }),
      replacePet: async ({ params, body, ctx }) => {
        admin(ctx, 'replace a pet');
        return { status: 200, body: written(await pets.replace(params.petId, body)) };
      },
      updatePet: async ({ params, body, ctx }) => {
        admin(ctx, 'update a pet');
        return { status: 200, body: written(await pets.update(params.petId, body)) };
      },
      deletePet: async ({ params: { petId }, ctx }) => {
        admin(ctx, 'delete a pet');
        // The events a pet carries are sent first, so that none is deleted with it; a status
        // change in between makes the delete match nothing, and the pet is read again.
        for (;;) {
          const pet = await pets.document(petId);
          const carried = events.source.eventsOf(pet);
          if (carried.length > 0) {
            await events.send(carried).catch((error: unknown) => {
              throw eventsNotSent(petId, error);
            });
          }
          if (await pets.deleteAsRead(pet)) return { status: 204, body: undefined };
        }
      },
    },
    categories: {
      listCategories: async ({ query, ctx }) => {
        const items = await categories.list(pageQuery(query));
        return { status: 200, body: pageOf(ctx, items, query.limit) };
      },
      createCategory: async ({ body, ctx }) => {
        admin(ctx, 'add a category');
        return created(ctx, '/v1/categories', await categories.create(body));
      },
      getCategory: async ({ params }) => ({
        status: 200,
        body: await categories.get(params.categoryId),
      }),
      replaceCategory: async ({ params, body, ctx }) => {
        admin(ctx, 'replace a category');
        return { status: 200, body: await categories.replace(params.categoryId, body) };
      },
      deleteCategory: async ({ params, ctx }) => {
        admin(ctx, 'delete a category');
        await categories.delete(params.categoryId);
        return { status: 204, body: undefined };
      },
    },
    // What the store asks: the internal token is enough, no account is involved.
    internal: {
      getPet: async ({ params }) => ({ status: 200, body: await pets.get(params.petId) }),
      setPetStatus: async ({ params, body }) => ({
        status: 200,
        body: written(await pets.setStatus(params.petId, body.status, body.version)),
      }),
      listPetStatuses: async ({ query }) => ({
        status: 200,
        body: await pets.statuses(query.petId),
      }),
    },
  };
}
