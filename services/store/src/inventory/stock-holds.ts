import { Worker, type Logger } from '@petstore/service-kit';
import type { PlacedOrder } from '../orders/order-repository.js';
import type { StatusChanges } from '../outbox/status-changes.js';
import type { Repository } from '../repository.js';
import type { StockChange, StockHold } from './inventory-repository.js';
import { sweepClosings } from './closings.js';
import { statusMoved } from './pet-status.js';

/** How a hold was settled: its order is stored, or its stock went back (`returned`). */
export type Settled =
  { stored: PlacedOrder } | { stored?: undefined; returned: StockChange | undefined };

/**
 * Settles a hold whose order may or may not be stored (its insert failed, or its request died):
 * the order id goes to a tombstone unless the order is there, and then the hold is released (the
 * order keeps its stock) or returned (the stock goes back), exactly once.
 */
export async function settleHold(
  { orders, inventory }: Repository,
  hold: StockHold,
  now: Date,
): Promise<Settled> {
  const stored = await orders.abortUnlessStored(hold);
  if (stored) {
    await inventory.releaseHolds([hold]);
    return { stored };
  }
  return { returned: await inventory.returnHold(hold, now) };
}

export interface HoldSweeperOptions {
  repository: Repository;
  statusChanges: StatusChanges;
  now: () => Date;
  logger: Logger;
  /** How often to look for holds left behind. */
  intervalMs: number;
  /** How old a hold or a closing must be before it counts as left behind by its request. */
  timeoutMs: number;
}

/**
 * Settles the holds that requests left behind — the database failed between taking the stock and
 * storing the order, or the process died there — at start and then every `intervalMs`. A hold
 * younger than `timeoutMs` is left to its request. Settling is safe even against a request that is
 * still running: the order id goes to whoever inserts it first. Then finishes the closings that
 * requests left half done (`sweepClosings`).
 */
export function holdSweeper({
  repository,
  statusChanges,
  now,
  logger,
  intervalMs,
  timeoutMs,
}: HoldSweeperOptions): Worker {
  return new Worker({
    name: 'hold-sweeper',
    logger,
    idleMs: intervalMs,
    step: async () => {
      const holds = await repository.inventory.holdsTakenBefore(
        new Date(now().getTime() - timeoutMs),
      );
      for (const hold of holds) {
        const settled = await settleHold(repository, hold, now());
        const { petId, orderId, quantity } = hold;
        if (settled.stored) {
          // The usual case: the hold's release, sent after the order was stored, did not happen.
          logger.info({ petId, orderId }, 'a left-over stock hold was released');
        } else {
          logger.warn({ petId, orderId, quantity }, 'a left-over stock hold was returned');
          if (settled.returned && statusMoved(settled.returned)) {
            await statusChanges.changed(petId, logger);
          }
        }
      }
      await sweepClosings(repository, statusChanges, { now: now(), timeoutMs, logger });
      return false;
    },
  });
}
