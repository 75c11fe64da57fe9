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

/**
 * Closing an order (a cancel, a completion) is two writes without a transaction: the order, which
 * records that the stock is owed the closing (`stockOwed`), then the stock, in an update that
 * marks the order so that it applies once. A retried request, or the sweeper, sends the second
 * again when a process died between them. True when this call moved the stock.
 */
export async function closeStock(
  { inventory, statusChanges }: StockDeps,
  closing: Closing,
  logger: Logger,
): Promise<boolean> {
  const change = await inventory.close(closing, new Date());
  if (change && statusMoved(change)) await statusChanges.changed(closing.petId, logger);
  return change !== undefined;
}

/**
 * Finishes the closings owed for longer than `timeoutMs`, then clears `stockOwed`; forgets marks
 * older than twice that whose orders owe nothing. A request that read an order as owing would have
 * to stall for longer than `timeoutMs` to find its mark forgotten.
 */
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
