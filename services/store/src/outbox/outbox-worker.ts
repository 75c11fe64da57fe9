import { randomUUID } from 'node:crypto';
import { contextFrom, inSpan, Worker, type Logger } from '@petstore/service-kit';
import { derivedStatus } from '../pet-status.js';
import { PetsUnavailableError, type PetsAdapter } from '../pets-service/pets-adapter.js';
import type { InventoryRepository } from '../repositories/inventory-repository.js';
import type { ClaimedEntry, OutboxRepository } from '../repositories/outbox-repository.js';

/** How long a claimed entry is held; a worker that dies frees it after this. */
const LEASE_MS = 30_000;

export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
}

// Claims an outbox entry (a lease: no two stores push one pet at once), pushes the status as the
// stock gives it now, and marks it delivered, drops it (no such pet) or retries it with backoff.
export function outboxWorker(
  outbox: OutboxRepository,
  inventory: InventoryRepository,
  pets: PetsAdapter,
  logger: Logger,
  { intervalMs, maxBackoffMs }: { intervalMs: number; maxBackoffMs: number },
): Worker {
  // The earliest retry this worker put off, to look again then rather than at its next poll.
  let nextRetryAt: number | undefined;

  async function push(entry: ClaimedEntry): Promise<void> {
    const { petId, version, attempts } = entry;
    const stock = await inventory.find(petId);
    if (!stock) return outbox.drop(petId);
    const status = derivedStatus(stock.quantity, stock.openOrders);
    try {
      if ((await pets.pushStatus(petId, status, version)) === 'delivered') {
        await outbox.delivered(entry);
      } else {
        await outbox.drop(petId);
        logger.warn({ petId }, 'outbox: the pet no longer exists; push dropped');
      }
    } catch (error) {
      if (!(error instanceof PetsUnavailableError)) throw error;
      const retryInMs = backoffMs(attempts, 100, maxBackoffMs);
      const at = Date.now() + retryInMs;
      await outbox.retryAt(entry, new Date(at));
      nextRetryAt = Math.min(nextRetryAt ?? at, at);
      const failed = { err: error, petId, attempts: attempts + 1, retryInMs };
      logger.warn(failed, 'outbox: status push failed; will retry');
    }
  }

  return new Worker({
    name: 'outbox',
    logger,
    idleMs: intervalMs,
    step: async () => {
      const entry = await outbox.claimNext(new Date(), LEASE_MS, randomUUID());
      if (!entry) return false;
      const { petId, version, traceparent } = entry;
      const attributes = { 'petstore.pet.id': petId, 'petstore.outbox.version': version };
      const parent = contextFrom({ traceparent });
      await inSpan('outbox push', { parent, attributes }, () => push(entry));
      return true;
    },
    // No query while idle: a retry another process put off, or a dead worker's claim, waits for
    // the next poll.
    nextDueInMs: () => {
      if (nextRetryAt === undefined) return Promise.resolve(undefined);
      const dueInMs = nextRetryAt - Date.now();
      if (dueInMs <= 0) nextRetryAt = undefined;
      return Promise.resolve(Math.max(dueInMs, 20));
    },
  });
}
