import type { Logger } from '@petstore/service-kit';
import type { StatusChanges } from '../outbox/status-changes.js';
import type { Repository } from '../repository.js';
import type { Closing } from './inventory-repository.js';
import { statusMoved } from './pet-status.js';

/**
 * Closing an order (a cancel, a completion) is two writes with no transaction: the order first,
 * recording that its pet's stock is owed the closing (`stockOwed`), then the stock, in an update
 * that marks the order so that it applies once however often it is sent. The request sends both;
 * a retry of the request, or the sweeper, sends the second again when the first process died
 * between them. The marks and `stockOwed` are cleared later by the sweeper. True when this call
 * moved the stock (false: it had moved already).
 */
export async function closeStock(
  { inventory }: Repository,
  statusChanges: StatusChanges,
  closing: Closing,
  at: Date,
  logger: Logger,
): Promise<boolean> {
  const change = await inventory.close(closing, at);
  if (change && statusMoved(change)) await statusChanges.changed(closing.petId, logger);
  return change !== undefined;
}

/**
 * The sweeper's part: sees to every closing owed for longer than `timeoutMs` (its request died
 * between the two writes, or has long sent both), then clears `stockOwed`; and forgets the marks
 * older than twice that whose orders owe nothing any more. A request or a sweep that read an
 * order as owing would have to stall for longer than `timeoutMs` before its stock update to find
 * the mark forgotten.
 */
export async function sweepClosings(
  repository: Repository,
  statusChanges: StatusChanges,
  { now, timeoutMs, logger }: { now: Date; timeoutMs: number; logger: Logger },
): Promise<void> {
  const { orders, inventory } = repository;
  const owed = await orders.owedBefore(new Date(now.getTime() - timeoutMs));
  for (const closing of owed) {
    if (await closeStock(repository, statusChanges, closing, now, logger)) {
      logger.warn({ ...closing }, 'a closed order’s stock change was finished');
    }
  }
  await orders.settled(owed.map(({ orderId }) => orderId));
  const marks = await inventory.closedBefore(new Date(now.getTime() - 2 * timeoutMs));
  if (marks.length === 0) return;
  const stillOwed = await orders.stillOwed(marks.map(({ orderId }) => orderId));
  await inventory.forgetClosed(marks.filter(({ orderId }) => !stillOwed.has(orderId)));
}
