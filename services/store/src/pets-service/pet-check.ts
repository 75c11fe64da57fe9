import { AppError } from '@petstore/service-kit';
import { LRUCache } from 'lru-cache';
import type { InventoryRepository } from '../repositories/inventory-repository.js';
import type { RequestScope } from '../request-scope.js';
import { PetsUnavailableError, type PetsAdapter } from './pets-adapter.js';

/** Throws 422 `unknown_pet` (naming the id as given: a path id may be past 2^53) unless it exists. */
export type PetCheck = (petId: number | bigint, request: RequestScope) => Promise<void>;

export interface PetCheckOptions {
  pets: PetsAdapter;
  inventory: InventoryRepository;
  /** How long a pet pets confirmed is taken to exist without asking again; 0 asks every time. */
  confirmedForMs: number;
}

/**
 * Asks pets, and remembers a confirmed pet for `confirmedForMs` (a pet deleted meanwhile can still
 * be ordered for that long). When pets cannot be reached, a pet with a stock entry is accepted:
 * an entry is only made after pets confirmed the pet.
 */
export function createPetCheck({ pets, inventory, confirmedForMs }: PetCheckOptions): PetCheck {
  const confirmed =
    confirmedForMs > 0
      ? new LRUCache<number, true>({ max: 10_000, ttl: confirmedForMs })
      : undefined;
  return async (id, { requestId, logger }) => {
    // Exact for every id pets can have issued; a larger one is past them all.
    const petId = Number(id);
    if (confirmed?.has(petId)) return;
    let exists: boolean;
    try {
      exists = await pets.petExists(petId, requestId);
    } catch (error) {
      if (error instanceof PetsUnavailableError && (await inventory.exists(petId))) {
        logger.warn({ err: error, petId }, 'pets unreachable; the pet is known from its stock');
        return;
      }
      throw error;
    }
    if (!exists) throw new AppError('unknown_pet', `pet ${id} does not exist`);
    confirmed?.set(petId, true);
  };
}
