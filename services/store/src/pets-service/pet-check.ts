import { AppError } from '@petstore/service-kit';
import type { InventoryRepository } from '../inventory/inventory-repository.js';
import type { RequestScope } from '../request-scope.js';
import { PetsUnavailableError, type PetsAdapter } from './pets-adapter.js';

/**
 * Makes sure the pet exists before stock moves: pets says 404 → 422 `unknown_pet`. When pets
 * cannot be reached, a pet the store has an inventory entry for is accepted (an entry is only
 * ever made after pets confirmed the pet); any other is 503 `service_unavailable`.
 */
export async function ensurePetExists(
  pets: PetsAdapter,
  inventory: InventoryRepository,
  petId: number,
  { requestId, logger }: RequestScope,
): Promise<void> {
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
  if (!exists) throw new AppError('unknown_pet', `pet ${petId} does not exist`);
}
