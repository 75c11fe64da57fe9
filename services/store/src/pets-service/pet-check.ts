import { AppError, type Logger } from '@petstore/service-kit';
import { LRUCache } from 'lru-cache';
import type { InventoryRepository } from '../repositories/inventory-repository.js';
import { PetsUnavailableError, type PetsAdapter } from './pets-adapter.js';

export type PetCheck = ReturnType<typeof createPetCheck>;

/** The request a use case serves (a Koa context is one): its id goes on to pets. */
export interface RequestScope {
  requestId: string;
  log: Logger;
}

// Remembers a known pet for `confirmedForMs`. When pets is unreachable, a pet with a stock entry
// is accepted: an entry is only made after pets confirmed the pet.
export function createPetCheck(
  pets: PetsAdapter,
  inventory: InventoryRepository,
  confirmedForMs: number,
) {
  const confirmed = new LRUCache<number, true>({ max: 10_000, ttl: Math.max(confirmedForMs, 1) });
  return async (id: number | bigint, { requestId, log }: RequestScope): Promise<void> => {
    // Exact for every id pets can have issued; a larger one is past them all.
    const petId = Number(id);
    if (confirmed.has(petId)) return;
    let exists: boolean;
    try {
      exists = await pets.petExists(petId, requestId);
    } catch (error) {
      if (!(error instanceof PetsUnavailableError && (await inventory.find(petId)))) throw error;
      log.warn({ err: error, petId }, 'pets unreachable; the pet is known from its stock');
      return;
    }
    // The id as given: a path id may be past 2^53.
    if (!exists) throw new AppError('unknown_pet', `pet ${id} does not exist`);
    if (confirmedForMs > 0) confirmed.set(petId, true);
  };
}
