import { AppError } from '@petstore/service-kit';
import { LRUCache } from 'lru-cache';
import type { PetsAdapter } from './pets-adapter.js';

export type PetCheck = ReturnType<typeof createPetCheck>;

// Remembers a known pet for `confirmedForMs`. When pets cannot be asked, a pet it has not just
// confirmed is refused (503): a stock entry does not prove the pet still exists.
export function createPetCheck(pets: PetsAdapter, confirmedForMs: number) {
  const confirmed = new LRUCache<number, true>({
    max: 10_000,
    ttl: Math.max(confirmedForMs, 1),
  });
  // `requestId` goes on to pets.
  return async (id: number | bigint, requestId: string): Promise<void> => {
    // Exact for every id pets can have issued; a larger one is past them all.
    const petId = Number(id);
    if (confirmed.has(petId)) return;
    // The id as given: a path id may be past 2^53.
    if (!(await pets.petExists(petId, requestId))) {
      throw new AppError('unknown_pet', `pet ${id} does not exist`);
    }
    if (confirmedForMs > 0) confirmed.set(petId, true);
  };
}
