import type { ApiPromise } from '../api-promise.js';
import { list, type List } from '../auto-pagination.js';
import { path } from '../path.js';
import type { RequestOptions, RequestSender } from '../request-sender.js';
import type {
  Empty,
  ListPetsQuery,
  NewPet,
  Pet,
  PetPatch,
  WithRequestId,
} from '../types.js';

/** The pets of the catalogue. Reading needs any key; writing needs an admin key. */
export class Pets {
  constructor(private readonly sender: RequestSender) {}

  /**
   * List pets
   *
   * In id order, filtered by status and category; iterating reads every page.
   * @operationId listPets
   */
  list(query?: ListPetsQuery, options?: RequestOptions): List<Pet> {
    return list(this.sender, { path: '/v2/pets', query }, options);
  }

  /**
   * Add a pet
   *
   * Without a status it is available. An unknown category is 422 `unknown_category`.
   * @operationId createPet
   */
  create(
    body: NewPet,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Pet>> {
    return this.sender.request(
      { method: 'POST', path: '/v2/pets', body },
      options,
    );
  }

  /**
   * Get a pet
   *
   * `GET /v2/pets/{petId}`, the successor of `/v1`'s deprecated read.
   * @operationId getPet
   */
  get(id: number, options?: RequestOptions): ApiPromise<WithRequestId<Pet>> {
    return this.sender.request(
      { method: 'GET', path: path`/v2/pets/${id}` },
      options,
    );
  }

  /**
   * Replace a pet
   *
   * Name, category and status; a status left out is available.
   * @operationId replacePet
   */
  replace(
    id: number,
    body: NewPet,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Pet>> {
    return this.sender.request(
      { method: 'PUT', path: path`/v2/pets/${id}`, body },
      options,
    );
  }

  /**
   * Update a pet
   *
   * Changes the fields given and keeps the others.
   * @operationId updatePet
   */
  update(
    id: number,
    patch: PetPatch,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<Pet>> {
    return this.sender.request(
      { method: 'PATCH', path: path`/v2/pets/${id}`, body: patch },
      options,
    );
  }

  /**
   * Delete a pet
   *
   * Its id is never given again.
   * @operationId deletePet
   */
  delete(id: number, options?: RequestOptions): ApiPromise<Empty> {
    return this.sender.requestEmpty(
      { method: 'DELETE', path: path`/v2/pets/${id}` },
      options,
    );
  }
}
