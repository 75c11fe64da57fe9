import { contract, internalContract } from '@petstore/contract';
import {
  decodeCursor,
  keyedRequest,
  operationOf,
  pageOf,
  REPLAYED_HEADER,
  requireCaller,
  type Executed,
  type IdPage,
} from '@petstore/service-kit';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { Context } from 'koa';
import type { Catalogue } from './catalogue.js';
import type { CategoriesRepository } from './categories-repository.js';
import type { PetsRepository } from './pets-repository.js';

/**
 * Every route the pets service serves: its part of the public contract in both versions (the
 * same handlers serve each) and the internal one.
 */
export const petsServiceContract = {
  v2: { pets: contract.v2.pets, categories: contract.v2.categories },
  v1: { pets: contract.v1.pets, categories: contract.v1.categories },
  internal: internalContract.pets,
};

export interface RoutesDeps {
  pets: PetsRepository;
  categories: CategoriesRepository;
  catalogue: Catalogue;
}

/** A resource made, or made before under the request's `Idempotency-Key`, at its address in the current version. */
const created = <T extends { id: number }>(
  ctx: Context,
  path: string,
  made: Executed<T>,
) => {
  ctx.set('Location', `${path}/${made.body.id}`);
  if (made.replayed) ctx.set(REPLAYED_HEADER, 'true');
  return { status: 201 as const, body: made.body };
};

/** The request's `Idempotency-Key`, bound to the calling account, the operation and the body. */
const keyed = (
  ctx: Context,
  { headers, body }: { headers: { 'idempotency-key'?: string }; body: unknown },
) =>
  keyedRequest(requireCaller(ctx).accountId, headers['idempotency-key'], {
    operation: operationOf(ctx),
    body,
  });

const ok = <T>(body: T) => ({ status: 200 as const, body });
const noContent = { status: 204 as const, body: undefined };

/** A page of a list, read one past `limit` to know whether a `Link` to the next is due. */
const listed = async <T extends { id: number }>(
  ctx: Context,
  { cursor, limit }: { cursor?: string; limit: number },
  list: (page: IdPage) => Promise<T[]>,
) => {
  const page = await list({ after: decodeCursor(cursor), limit: limit + 1 });
  return ok(pageOf(ctx, page, limit));
};

/** The handlers of `petsServiceContract`: writes of more than one document through the catalogue. */
export function routes({
  pets,
  categories,
  catalogue,
}: RoutesDeps): RouterImplementation<typeof petsServiceContract> {
  const catalogueRoutes: RouterImplementation<typeof petsServiceContract.v2> = {
    pets: {
      listPets: ({ query, ctx }) =>
        listed(ctx, query, (page) => pets.list(query, page)),
      createPet: async ({ headers, body, ctx }) => {
        const made = await catalogue.createPet(
          body,
          keyed(ctx, { headers, body }),
        );
        return created(ctx, contract.v2.pets.listPets.path, made);
      },
      // Deprecated in /v1: its headers and its sunset are set by operationPolicies, in front of it.
      getPet: async ({ params }) => ok(await pets.get(params.petId)),
      replacePet: async ({ params, body }) =>
        ok(await catalogue.replacePet(params.petId, body)),
      updatePet: async ({ params, body }) =>
        ok(await catalogue.updatePet(params.petId, body)),
      deletePet: async ({ params }) => {
        await catalogue.deletePet(params.petId);
        return noContent;
      },
    },
    categories: {
      listCategories: ({ query, ctx }) =>
        listed(ctx, query, (page) => categories.list(page)),
      createCategory: async ({ headers, body, ctx }) => {
        const request = keyed(ctx, { headers, body });
        const made = await catalogue.createCategory(body, request);
        return created(ctx, contract.v2.categories.listCategories.path, made);
      },
      getCategory: async ({ params }) =>
        ok(await categories.get(params.categoryId)),
      replaceCategory: async ({ params, body }) =>
        ok(await categories.replace(params.categoryId, body)),
      deleteCategory: async ({ params }) => {
        await catalogue.deleteCategory(params.categoryId);
        return noContent;
      },
    },
  };
  return {
    v2: catalogueRoutes,
    v1: catalogueRoutes,
    // What the store asks: the internal token is enough, no account is involved.
    internal: {
      getPet: async ({ params }) => ok(await pets.get(params.petId)),
      setPetStatus: async ({ params, body }) =>
        ok(await catalogue.setStatus(params.petId, body.status, body.version)),
      listPetStatuses: async ({ query }) =>
        ok(await pets.statuses(query.petId)),
    },
  };
}
