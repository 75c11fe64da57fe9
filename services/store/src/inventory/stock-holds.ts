import { Worker, type Logger } from '@petstore/service-kit';
import { statusMoved, type StockChange } from '../pet-status.js';
import type { StockHold } from '../repositories/inventory-repository.js';
import type { PlacedOrder } from '../repositories/order-repository.js';
import { sweepClosings, type StockDeps } from './closings.js';

export type Settled = { stored: PlacedOrder } | { stored?: undefined; returned?: StockChange };

/**
 * Settles a hold whose order may or may not be stored (its insert failed, or its request died):
 * the hold is released if the order is there, else its stock goes back, exactly once.
 */
export async function settleHold(
  { orders, inventory }: Pick<StockDeps, 'orders' | 'inventory'>,
  hold: StockHold,
): Promise<Settled> {
  const stored = await orders.abortUnlessStored(hold);
  if (!stored) return { returned: await inventory.returnHold(hold, new Date()) };
  await inventory.releaseHolds([hold]);
  return { stored };
}

export interface HoldSweeperOptions {
  logger: Logger;
  intervalMs: number;
  /** How old a hold or a closing must be to count as left behind by its request. */
  timeoutMs: number;
}

/**
 * Settles the holds requests left behind (the database failed or the process died between taking
 * the stock and storing the order), safe even against a request still running: the order id goes
 * to whoever inserts it first. Then finishes the closings requests left half done.
 */
export function holdSweeper(deps: StockDeps, options: HoldSweeperOptions): Worker {
  const { logger, intervalMs, timeoutMs } = options;
  return new Worker({
    name: 'hold-sweeper',
    logger,
    idleMs: intervalMs,
    step: async () => {
      for (const hold of await deps.inventory.holdsTakenBefore(new Date(Date.now() - timeoutMs))) {
        const { petId, orderId, quantity } = hold;
        const settled = await settleHold(deps, hold);
        if (settled.stored) {
          logger.info({ petId, orderId }, 'a left-over stock hold was released');
          continue;
        }
        logger.warn({ petId, orderId, quantity }, 'a left-over stock hold was returned');
        if (settled.returned && statusMoved(settled.returned)) {
          await deps.statusChanges.changed(petId, logger);
        }
      }
      await sweepClosings(deps, timeoutMs, logger);
      return false;
    },
  });
}
