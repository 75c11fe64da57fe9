import { contract, internalContract } from '@petstore/contract';
import type { RouterImplementation } from '@petstore/ts-rest-koa';
import type { CategoriesRepository } from './categories-repository.js';
import { categoryRoutes } from './category-routes.js';
import { internalRoutes } from './internal-routes.js';
import { petRoutes } from './pet-routes.js';
import type { PetsRepository } from './pets-repository.js';

/** Every route the pets service answers: its part of the public contract and the internal one. */
export const petsServiceContract = {
  pets: contract.pets,
  categories: contract.categories,
  internal: internalContract.pets,
};

export interface Repositories {
  pets: PetsRepository;
  categories: CategoriesRepository;
}

/** The handlers of `petsServiceContract`, keyed like it. */
export function routes({
  pets,
  categories,
}: Repositories): RouterImplementation<typeof petsServiceContract> {
  return {
    pets: petRoutes(pets),
    categories: categoryRoutes(categories),
    internal: internalRoutes(pets),
  };
}
