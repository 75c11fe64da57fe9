import { contract, internalContract, type RecordedEvent } from '@petstore/contract';
import { decodeCursor, pageOf, type EventSource, type IdPage } from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { Context } from 'koa';
import type { CategoriesRepository } from './categories-repository.js';
import { eventsNotSent } from './errors.js';
import type { PetsRepository, WrittenPet } from './pets-repository.js';
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

const created = <T extends { id: number }>(ctx: Context, path: string, resource: T) => {
  ctx.set('Location', `${path}/${resource.id}`);
  return { status: 201 as const, body: resource };
};

const ok = <T>(body: T) => ({ status: 200 as const, body });
const noContent = { status: 204 as const, body: undefined };

/** A page of a list, read one past `limit` to know whether a `Link` to the next is due. */
const listed = async <T extends { id: number }>(
  ctx: Context,
  { cursor, limit }: { cursor?: string; limit: number },
  list: (page: IdPage) => Promise<T[]>,
) => ok(pageOf(ctx, await list({ after: decodeCursor(cursor), limit: limit + 1 }), limit));

/** The handlers of `petsServiceContract`; a write hands the events it recorded to the relay. */
export function routes({
  pets,
  categories,
  events,
}: RoutesDeps): RouterImplementation<typeof petsServiceContract> {
  const written = ({ pet, events: recorded }: WrittenPet) => {
    events.source.written(pet.id, recorded);
    return pet;
  };
  return {
    pets: {
      listPets: ({ query, ctx }) => listed(ctx, query, (page) => pets.list(query, page)),
      createPet: async ({ body, ctx }) => created(ctx, '/v1/pets', await pets.create(body)),
      // Deprecated: its headers and its sunset are set by operationPolicies, in front of it.
      getPet: async ({ params }) => ok(await pets.get(params.petId)),
      replacePet: async ({ params, body }) => ok(written(await pets.replace(params.petId, body))),
      updatePet: async ({ params, body }) => ok(written(await pets.update(params.petId, body))),
      deletePet: async ({ params: { petId } }) => {
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
          if (await pets.deleteAsRead(pet)) return noContent;
        }
      },
    },
    categories: {
      listCategories: ({ query, ctx }) => listed(ctx, query, (page) => categories.list(page)),
      createCategory: async ({ body, ctx }) =>
        created(ctx, '/v1/categories', await categories.create(body)),
      getCategory: async ({ params }) => ok(await categories.get(params.categoryId)),
      replaceCategory: async ({ params, body }) =>
        ok(await categories.replace(params.categoryId, body)),
      deleteCategory: async ({ params }) => {
        await categories.delete(params.categoryId);
        return noContent;
      },
    },
    // What the store asks: the internal token is enough, no account is involved.
    internal: {
      getPet: async ({ params }) => ok(await pets.get(params.petId)),
      setPetStatus: async ({ params, body }) =>
        ok(written(await pets.setStatus(params.petId, body.status, body.version))),
      listPetStatuses: async ({ query }) => ok(await pets.statuses(query.petId)),
    },
  };
}
