import type { PetStatus } from '@petstore/contract';
import { currentTraceparent, type Logger } from '@petstore/service-kit';
import { derivedStatus } from '../inventory/pet-status.js';
import type { Repository } from '../repository.js';

/** What a trigger (order placed, completed, cancelled; stock set) does after its own write. */
export interface StatusChanges {
  /**
   * Records durably that the pet's status must be pushed to pets, then wakes the outbox worker:
   * called by a trigger whose change moved the status. Never throws: the trigger's write is done
   * and its answer stands; a failure is logged (the reconciliation repairs the status later).
   */
  changed(petId: number, logger: Logger): Promise<void>;
}

export function createStatusChanges(
  repository: Repository,
  now: () => Date,
  wakeWorker: () => void,
): StatusChanges {
  return {
    async changed(petId, logger) {
      try {
        await repository.outbox.record(petId, now(), currentTraceparent());
        wakeWorker();
      } catch (error) {
        logger.error({ err: error, petId }, 'could not record a status push for the pet');
      }
    },
  };
}

/** The pet's status as its stock gives it now; undefined when it has no inventory entry. */
export async function currentStatus(
  repository: Repository,
  petId: number,
): Promise<PetStatus | undefined> {
  const stock = await repository.inventory.find(petId);
  return stock && derivedStatus(stock.quantity, stock.openOrders);
}
