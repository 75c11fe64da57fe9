import { Worker, type Logger } from '@petstore/service-kit';
import { derivedStatus } from '../pet-status.js';
import type { PetsAdapter } from '../pets-service/pets-adapter.js';
import type { InventoryRepository } from '../repositories/inventory-repository.js';
import type { StatusChanges } from './status-changes.js';

/** The most `GET /internal/pet-statuses` takes. */
const PAGE = 100;

// Repairs drift between the status the store derives and the one pets holds (an admin's edit, a
// push lost with a database restored from a backup).
export function statusReconciliation(
  inventory: InventoryRepository,
  pets: PetsAdapter,
  statusChanges: StatusChanges,
  logger: Logger,
  intervalMs: number,
): Worker {
  const step = async () => {
    for (let after = 0; ;) {
      const stocks = await inventory.list(after, PAGE);
      const entries = stocks.length === 0 ? [] : await pets.statuses(stocks.map((s) => s.petId));
      const held = new Map(entries.map((entry) => [entry.petId, entry.status]));
      for (const { petId, quantity, openOrders } of stocks) {
        const holds = held.get(petId);
        const derived = derivedStatus(quantity, openOrders);
        if (holds === undefined || holds === derived) continue;
        logger.warn({ petId, holds, derived }, 'pets holds another status; pushing again');
        await statusChanges.changed(petId, logger);
      }
      const last = stocks.at(-1);
      if (!last || stocks.length < PAGE) return false;
      after = last.petId;
    }
  };
  return new Worker({ name: 'status-reconciliation', logger, idleMs: intervalMs, step });
}
