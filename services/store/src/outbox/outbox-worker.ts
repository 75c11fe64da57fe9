import { randomUUID } from 'node:crypto';
import { contextFrom, inSpan, Worker, type Logger } from '@petstore/service-kit';
import { derivedStatus } from '../pet-status.js';
import { PetsUnavailableError, type PetsAdapter } from '../pets-service/pets-adapter.js';
import type { InventoryRepository } from '../repositories/inventory-repository.js';
import type { ClaimedEntry, OutboxRepository } from '../repositories/outbox-repository.js';

export interface OutboxWorkerOptions {
  outbox: OutboxRepository;
  inventory: InventoryRepository;
  pets: PetsAdapter;
  logger: Logger;
  /** The longest sleep between looks at the outbox when nothing wakes the worker. */
  intervalMs: number;
  maxBackoffMs: number;
}

const BASE_BACKOFF_MS = 100;
/** How long a claimed entry is held; a worker that dies frees it after this. */
const LEASE_MS = 30_000;

export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
}

/**
 * Pushes pet statuses to pets, one outbox entry at a time: claims it (a lease, so that two stores
 * never push one pet at once), pushes the status as the stock gives it now, and marks it
 * delivered, drops it (the pet is gone) or retries it with backoff (pets is unreachable).
 */
export function outboxWorker(options: OutboxWorkerOptions): Worker {
  const { outbox, inventory, pets, logger, intervalMs, maxBackoffMs } = options;
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
        logger.debug({ petId, status }, 'outbox: status pushed');
      } else {
        await outbox.drop(petId);
        logger.warn({ petId }, 'outbox: the pet no longer exists; push dropped');
      }
    } catch (error) {
      if (!(error instanceof PetsUnavailableError)) throw error;
      const retryInMs = backoffMs(attempts, BASE_BACKOFF_MS, maxBackoffMs);
      const at = Date.now() + retryInMs;
      await outbox.retryAt(entry, new Date(at));
      nextRetryAt = Math.min(nextRetryAt ?? at, at);
      logger.warn(
        { err: error, petId, attempts: attempts + 1, retryInMs },
        'outbox: status push failed; will retry',
      );
    }
  }

  return new Worker({
    name: 'outbox',
    logger,
    idleMs: intervalMs,
    step: async () => {
      const entry = await outbox.claimDue(new Date(), LEASE_MS, randomUUID());
      if (!entry) return false;
      const attributes = {
        'petstore.pet.id': entry.petId,
        'petstore.outbox.version': entry.version,
      };
      // The push continues the trace of the change that asked for it.
      const parent = contextFrom({ traceparent: entry.traceparent });
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
