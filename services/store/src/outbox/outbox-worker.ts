// Outbox: pet statuses to push, recorded with the write that changed them, pushed until delivered.
import { randomUUID } from 'node:crypto';
import type { Logger } from '@petstore/service-kit';
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
export class OutboxWorker {
  private readonly now: () => Date;
  private readonly baseBackoffMs: number;
  private readonly leaseMs: number;
  private running = false;
  private loop: Promise<void> | undefined;
  private woken = false;
  private wake: (() => void) | undefined;

  constructor(private readonly options: OutboxWorkerOptions) {
    this.now = options.now ?? (() => new Date());
    this.baseBackoffMs = options.baseBackoffMs ?? 100;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks at the outbox now rather than at the next interval (after a trigger). */
  kick(): void {
    this.woken = true;
    this.wake?.();
  }

  /** Stops after the push in progress, if any. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let pushed = false;
      try {
        pushed = await this.pushNext();
      } catch (error) {
        this.options.logger.error({ err: error }, 'outbox: pass failed');
      }
      if (!pushed && this.running) await this.idle();
    }
  }

  /** Pushes the most overdue entry; false when none was due. */
  private async pushNext(): Promise<boolean> {
    const { repository, pets, logger } = this.options;
    const entry = await repository.outbox.claimDue(this.now(), this.leaseMs, randomUUID());
    if (!entry) return false;
    const status = await currentStatus(repository, entry.petId);
    if (status === undefined) {
      await repository.outbox.drop(entry.petId);
      return true;
    }
    try {
      const result = await pets.pushStatus(entry.petId, status);
      if (result === 'delivered') {
        await repository.outbox.delivered(entry);
        logger.debug({ petId: entry.petId, status }, 'outbox: status pushed');
      } else {
        await repository.outbox.drop(entry.petId);
        logger.warn({ petId: entry.petId }, 'outbox: the pet no longer exists; push dropped');
      }
    } catch (error) {
      if (!(error instanceof PetsUnavailableError)) throw error;
      await this.retryLater(entry, error);
    }
    return true;
  }

  private async retryLater(entry: ClaimedEntry, error: PetsUnavailableError): Promise<void> {
    const delayMs = backoffMs(entry.attempts, this.baseBackoffMs, this.options.maxBackoffMs);
    await this.options.repository.outbox.retryAt(entry, new Date(this.now().getTime() + delayMs));
    this.options.logger.warn(
      { err: error, petId: entry.petId, attempts: entry.attempts + 1, retryInMs: delayMs },
      'outbox: status push failed; will retry',
    );
  }

  /** Sleeps until woken, the next entry is due, or the interval ends. */
  private async idle(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return;
    }
    let waitMs = this.options.intervalMs;
    try {
      const dueAt = await this.options.repository.outbox.nextDueAt(this.now());
      if (dueAt) waitMs = Math.min(waitMs, Math.max(dueAt.getTime() - this.now().getTime(), 20));
    } catch {
      // The pass that follows will log what is wrong with the database.
    }
    if (this.woken || !this.running) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
    this.woken = false;
  }
}
