import {
  Worker,
  type Logger,
  type Outbox,
  type Transaction,
} from '@petstore/service-kit';
import { statusPush } from '../events.js';
import { derivedStatus } from '../pet-status.js';
import type { PetsAdapter } from '../pets-service/pets-adapter.js';
import type { InventoryRepository } from '../repositories/inventory-repository.js';

/** The most `GET /internal/pet-statuses` takes. */
const PAGE = 100;

export interface StatusReconciliationDeps {
  inventory: InventoryRepository;
  outbox: Outbox;
  pets: PetsAdapter;
  transaction: Transaction;
  logger: Logger;
  intervalMs: number;
}

// Repairs drift between the status the store derives and the one pets has (an admin's edit, a
// push lost with a database restored from a backup): a new version of the stock, pushed again.
// The stock of a pet that pets no longer has (deleted) goes.
export function statusReconciliation(deps: StatusReconciliationDeps): Worker {
  const { inventory, outbox, pets, transaction, logger, intervalMs } = deps;
  const pushAgain = (petId: number) =>
    transaction(async (session) => {
      const change = await inventory.touch(petId, session);
      if (change) await outbox.add(session, [statusPush(change.after)]);
    });
  const step = async () => {
    for (let after = 0; ;) {
      const stocks = await inventory.list({ after, limit: PAGE });
      const entries =
        stocks.length === 0
          ? []
          : await pets.statuses(stocks.map((s) => s.petId));
      const inPets = new Map(
        entries.map((entry) => [entry.petId, entry.status]),
      );
      for (const stock of stocks) {
        const petsStatus = inPets.get(stock.petId);
        const derived = derivedStatus(stock);
        if (petsStatus === undefined) {
          logger.info(
            { petId: stock.petId },
            'pets no longer has the pet; its stock goes',
          );
          await inventory.remove(stock.petId);
          continue;
        }
        if (petsStatus === derived) continue;
        logger.warn(
          { petId: stock.petId, petsStatus, derived },
          'pets has another status; pushing again',
        );
        await pushAgain(stock.petId);
      }
      const last = stocks.at(-1);
      if (!last || stocks.length < PAGE) return false;
      after = last.petId;
    }
  };
  return new Worker({
    name: 'status-reconciliation',
    logger,
    idleMs: intervalMs,
    step,
  });
}
