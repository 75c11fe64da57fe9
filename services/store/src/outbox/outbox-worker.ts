// Outbox: pet statuses to push, recorded with the write that changed them, pushed until delivered.
import { randomUUID } from 'node:crypto';
import { contextFrom, inSpan, Worker, type Logger } from '@petstore/service-kit';
import { PetsUnavailableError, type PetsAdapter } from '../pets-service/pets-adapter.js';
import type { Repository } from '../repository.js';
import type { ClaimedEntry } from './outbox-repository.js';
import { currentStatus } from './status-changes.js';

export interface OutboxWorkerOptions {
  repository: Repository;
  pets: PetsAdapter;
  logger: Logger;
  now?: () => Date;
  /** The longest the worker sleeps between looks at the outbox when nothing wakes it. */
  intervalMs: number;
  /** The first retry comes after `baseBackoffMs`, doubling per failure up to `maxBackoffMs`. */
  baseBackoffMs?: number;
  maxBackoffMs: number;
  /** How long a claimed entry is held; a worker that dies frees it after this. */
  leaseMs?: number;
}

/** How long to wait before the next push of an entry that failed `attempts` times so far. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
}

/**
 * Pushes derived pet statuses to the pets service from the durable outbox, until stopped. One
 * entry at a time: claim it (a lease, so two store instances never push one pet at once),
 * compute the pet's status as it is now, push it; delivered → clear the entry unless a trigger
 * came meanwhile; pet gone → drop it; pets unreachable → retry with exponential backoff.
 */
export function outboxWorker({
  repository,
  pets,
  logger,
  now = () => new Date(),
  intervalMs,
  baseBackoffMs = 100,
  maxBackoffMs,
  leaseMs = 30_000,
}: OutboxWorkerOptions): Worker {
  /** The earliest retry this worker put off, so it looks again then rather than at its next poll. */
  let nextRetryAt: number | undefined;

  async function retryLater(entry: ClaimedEntry, error: PetsUnavailableError): Promise<void> {
    const delayMs = backoffMs(entry.attempts, baseBackoffMs, maxBackoffMs);
    const at = now().getTime() + delayMs;
    await repository.outbox.retryAt(entry, new Date(at));
    nextRetryAt = Math.min(nextRetryAt ?? at, at);
    logger.warn(
      { err: error, petId: entry.petId, attempts: entry.attempts + 1, retryInMs: delayMs },
      'outbox: status push failed; will retry',
    );
  }

  /** Pushes the most overdue entry; false when none was due. */
  async function pushNext(): Promise<boolean> {
    const entry = await repository.outbox.claimDue(now(), leaseMs, randomUUID());
    if (!entry) return false;
    // The push continues the trace of the change that asked for it.
    await inSpan(
      'outbox push',
      {
        parent: contextFrom({ traceparent: entry.traceparent }),
        attributes: { 'petstore.pet.id': entry.petId, 'petstore.outbox.version': entry.version },
      },
      () => push(entry),
    );
    return true;
  }

  async function push(entry: ClaimedEntry): Promise<void> {
    const status = await currentStatus(repository, entry.petId);
    if (status === undefined) {
      await repository.outbox.drop(entry.petId);
      return;
    }
    try {
      const result = await pets.pushStatus(entry.petId, status, entry.version);
      if (result === 'delivered') {
        await repository.outbox.delivered(entry);
        logger.debug({ petId: entry.petId, status }, 'outbox: status pushed');
      } else {
        await repository.outbox.drop(entry.petId);
        logger.warn({ petId: entry.petId }, 'outbox: the pet no longer exists; push dropped');
      }
    } catch (error) {
      if (!(error instanceof PetsUnavailableError)) throw error;
      await retryLater(entry, error);
    }
  }

  return new Worker({
    name: 'outbox',
    logger,
    step: pushNext,
    idleMs: intervalMs,
    // No database query while idle: a retry this worker scheduled wakes it; one another
    // process scheduled, or a claim whose worker died, is found by the next poll.
    nextDueInMs: () => {
      if (nextRetryAt === undefined) return Promise.resolve(undefined);
      const dueInMs = nextRetryAt - now().getTime();
      if (dueInMs <= 0) nextRetryAt = undefined;
      return Promise.resolve(Math.max(dueInMs, 20));
    },
  });
}
