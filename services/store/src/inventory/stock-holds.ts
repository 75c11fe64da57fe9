import { Worker, type Logger } from '@petstore/service-kit';
import { statusMoved } from '../pet-status.js';
import type { StockHold } from '../repositories/inventory-repository.js';
import type { PlacedOrder } from '../repositories/order-repository.js';
import { sweepClosings, type StockDeps } from './closings.js';

/** For a hold whose order may be stored or not: releases it if it is, else returns its stock. */
export async function settleHold(
  { orders, inventory, statusChanges }: StockDeps,
  hold: StockHold,
  logger: Logger,
): Promise<PlacedOrder | undefined> {
  const stored = await orders.abortUnlessStored(hold);
  if (stored) {
    await inventory.releaseHolds([hold]);
    return stored;
  }
  const returned = await inventory.returnHold(hold, new Date());
  if (returned && statusMoved(returned)) await statusChanges.changed(hold.petId, logger);
}

/** Settles the holds and finishes the closings that failed or dead requests left behind. */
export function holdSweeper(
  deps: StockDeps,
  logger: Logger,
  { timeoutMs, sweepIntervalMs }: { timeoutMs: number; sweepIntervalMs: number },
): Worker {
  const step = async () => {
    for (const hold of await deps.inventory.holdsTakenBefore(new Date(Date.now() - timeoutMs))) {
      const { petId, orderId, quantity } = hold;
      if (await settleHold(deps, hold, logger)) {
        logger.info({ petId, orderId }, 'a left-over stock hold was released');
      } else {
        logger.warn({ petId, orderId, quantity }, 'a left-over stock hold was returned');
      }
    }
    await sweepClosings(deps, timeoutMs, logger);
    return false;
  };
  return new Worker({ name: 'hold-sweeper', logger, idleMs: sweepIntervalMs, step });
}
