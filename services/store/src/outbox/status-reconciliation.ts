import { Worker, type Logger } from '@petstore/service-kit';
import type { Inventory } from '../inventory/inventory.js';
import type { PetsAdapter } from '../pets-service/pets-adapter.js';
import type { StatusChanges } from './status-changes.js';

/** Pets asked about at once: the most `GET /internal/pet-statuses` takes. */
const PAGE = 100;

export interface StatusReconciliationOptions {
  inventory: Inventory;
  pets: PetsAdapter;
  statusChanges: StatusChanges;
  logger: Logger;
  /** How often every pet with stock is compared. */
  intervalMs: number;
}

/**
 * Repairs drift between the status the store derives and the one pets holds (an admin's edit of
 * a pet whose status the store owns, a push lost with a database restored from a backup): at
 * start and every `intervalMs`, walks the inventory a page at a time, asks pets for the page's
 * statuses, and records a push for every pet that differs. A pet pets no longer has is skipped.
 */
export function statusReconciliation({
  inventory,
  pets,
  statusChanges,
  logger,
  intervalMs,
}: StatusReconciliationOptions): Worker {
  return new Worker({
    name: 'status-reconciliation',
    logger,
    idleMs: intervalMs,
    step: async () => {
      for (let after = 0; ;) {
        const items = await inventory.list({ after, limit: PAGE });
        const held = new Map(
          items.length === 0
            ? []
            : (await pets.statuses(items.map((item) => item.petId))).map((entry) => [
                entry.petId,
                entry.status,
              ]),
        );
        for (const { petId, status } of items) {
          const holds = held.get(petId);
          if (holds === undefined || holds === status) continue;
          logger.warn(
            { petId, holds, derived: status },
            'pets holds another status; pushing again',
          );
          await statusChanges.changed(petId, logger);
        }
        const last = items.at(-1);
        if (!last || items.length < PAGE) return false;
        after = last.petId;
      }
    },
  });
}
