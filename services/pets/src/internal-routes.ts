import type { internalContract } from '@petstore/contract';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { PetsRepository } from './pets-repository.js';

/**
 * `internalContract.pets`: what the store asks. Only the internal token is needed (checked by
 * service-kit in front of every route); no account is involved.
 */
export function internalRoutes(
  pets: PetsRepository,
): RouterImplementation<typeof internalContract.pets> {
  return {
    getPet: async ({ params }) => ({ status: 200, body: await pets.get(params.petId) }),
    setPetStatus: async ({ params, body }) => ({
      status: 200,
      body: await pets.setStatus(params.petId, body.status, body.version),
    }),
    listPetStatuses: async ({ query }) => ({
      status: 200,
      body: await pets.statuses(query.petId),
    }),
  };
}
