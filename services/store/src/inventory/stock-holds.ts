import { Worker, type Logger } from '@petstore/service-kit';
import { statusMoved, type StockChange } from '../pet-status.js';
import type { StockHold } from '../repositories/inventory-repository.js';
import type { PlacedOrder } from '../repositories/order-repository.js';
import { sweepClosings, type StockDeps } from './closings.js';

export type Settled = { stored: PlacedOrder } | { stored?: undefined; returned?: StockChange };

/** For a hold whose order may be stored or not: releases it if it is, else returns its stock. */
export async function settleHold(
  { orders, inventory }: Pick<StockDeps, 'orders' | 'inventory'>,
  hold: StockHold,
): Promise<Settled> {
  const stored = await orders.abortUnlessStored(hold);
  if (!stored) return { returned: await inventory.returnHold(hold, new Date()) };
  await inventory.releaseHolds([hold]);
  return { stored };
}

/**
 * Settles the holds left behind by requests that failed or died between taking the stock and
 * storing the order, and finishes the closings they left half done.
 */
export function holdSweeper(
  deps: StockDeps,
  logger: Logger,
  /** `timeoutMs`: how old a hold or a closing must be to count as left behind by its request. */
  { timeoutMs, sweepIntervalMs }: { timeoutMs: number; sweepIntervalMs: number },
): Worker {
  return new Worker({
    name: 'hold-sweeper',
    logger,
    idleMs: sweepIntervalMs,
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
