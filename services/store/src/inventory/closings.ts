import type { Logger } from '@petstore/service-kit';
import type { StatusChanges } from '../outbox/status-changes.js';
import { statusMoved } from '../pet-status.js';
import type { Closing, InventoryRepository } from '../repositories/inventory-repository.js';
import type { OrderRepository } from '../repositories/order-repository.js';

export interface StockDeps {
  orders: OrderRepository;
  inventory: InventoryRepository;
  statusChanges: StatusChanges;
}

/** The second write of a closing (docs/store-orders.md); true when this call moved the stock. */
export async function closeStock(
  { inventory, statusChanges }: StockDeps,
  closing: Closing,
  logger: Logger,
): Promise<boolean> {
  const change = await inventory.close(closing, new Date());
  if (change && statusMoved(change)) await statusChanges.changed(closing.petId, logger);
  return change !== undefined;
}

// Finishes closings owed for longer than `timeoutMs`; forgets marks older than twice that whose
// orders owe nothing, so a request must stall longer than `timeoutMs` to find its mark gone.
export async function sweepClosings(deps: StockDeps, timeoutMs: number, logger: Logger) {
  const { orders, inventory } = deps;
  const now = Date.now();
  const owed = await orders.owedBefore(new Date(now - timeoutMs));
  for (const closing of owed) {
    if (await closeStock(deps, closing, logger)) {
      logger.warn({ ...closing }, 'a closed order’s stock change was finished');
    }
  }
  await orders.settled(owed.map(({ orderId }) => orderId));
  const marks = await inventory.closedBefore(new Date(now - 2 * timeoutMs));
  if (marks.length === 0) return;
  const stillOwed = await orders.stillOwed(marks.map(({ orderId }) => orderId));
  await inventory.forgetClosed(marks.filter(({ orderId }) => !stillOwed.has(orderId)));
}
