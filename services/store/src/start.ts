import {
  databaseGauge,
  startService,
  type StartedService,
  type StartOptions,
} from '@petstore/service-kit';
import { createApp } from './app.js';
import type { StoreConfig } from './config.js';
import { idempotencySweeper } from './idempotency/idempotency-sweeper.js';
import { storeEventRelay } from './events.js';
import { ensureIndexes } from './indexes.js';
import { createInventory } from './inventory/inventory.js';
import { outboxWorker } from './outbox/outbox-worker.js';
import { statusReconciliation } from './outbox/status-reconciliation.js';
import { createPetCheck } from './pets-service/pet-check.js';
import { createPetsAdapter } from './pets-service/pets-adapter.js';
import { createRepository } from './repository.js';
import { createStatusChanges } from './outbox/status-changes.js';
import { holdSweeper } from './inventory/stock-holds.js';

export interface StartStoreOptions extends StartOptions {
  /** Checks every response against the contract (on in tests). */
  validateResponses?: boolean;
  /** How often expired idempotency keys are deleted; hourly by default. */
  sweepIntervalMs?: number;
}

/** Closing stops the background work before the database closes. */
export type RunningStore = StartedService;

/**
 * Runs the store: connects to its database, ensures the indexes, starts the outbox worker, the
 * event relay, the idempotency sweeper and the stock hold sweeper, and listens.
 */
export function startStore(
  config: StoreConfig,
  { validateResponses, sweepIntervalMs = 60 * 60 * 1000, ...options }: StartStoreOptions = {},
): Promise<RunningStore> {
  return startService({
    name: 'store',
    config,
    ...options,
    setUp: async ({ database: { db }, logger: log, onShutdown }) => {
      await ensureIndexes(db);
      const repository = createRepository(db);
      const pets = createPetsAdapter({
        baseUrls: config.pets.urls,
        internalToken: config.internalToken,
        timeoutMs: config.pets.timeoutMs,
      });
      const outbox = outboxWorker({
        repository,
        pets,
        logger: log.child({ component: 'outbox' }),
        intervalMs: config.outbox.intervalMs,
        maxBackoffMs: config.outbox.maxBackoffMs,
      });
      const events = storeEventRelay(db, config, log.child({ component: 'events' }));
      const app = createApp({
        db,
        config,
        logger: log,
        pets,
        wakeOutbox: () => outbox.kick(),
        wakeEventRelay: () => events.kick(),
        validateResponses,
      });
      databaseGauge(
        'petstore_outbox_backlog',
        'Pets whose status push is owed.',
        async () => (await repository.outbox.backlog()).size,
      );
      databaseGauge(
        'petstore_outbox_oldest_age_seconds',
        'How long the oldest owed status push has waited (0 when none).',
        async () => {
          const { oldest } = await repository.outbox.backlog();
          return oldest ? (Date.now() - oldest.getTime()) / 1000 : 0;
        },
      );
      const statusChanges = createStatusChanges(
        repository,
        () => new Date(),
        () => outbox.kick(),
      );
      const background = [
        outbox,
        events,
        statusReconciliation({
          inventory: createInventory({
            repository,
            petCheck: createPetCheck({
              pets,
              inventory: repository.inventory,
              confirmedForMs: config.pets.confirmedForMs,
            }),
            statusChanges,
            now: () => new Date(),
          }),
          pets,
          statusChanges,
          logger: log.child({ component: 'status-reconciliation' }),
          intervalMs: config.outbox.reconcileIntervalMs,
        }),
        idempotencySweeper(repository.idempotency, {
          now: () => new Date(),
          logger: log,
          intervalMs: sweepIntervalMs,
        }),
        holdSweeper({
          repository,
          statusChanges,
          now: () => new Date(),
          logger: log.child({ component: 'stock-holds' }),
          intervalMs: config.stockHolds.sweepIntervalMs,
          timeoutMs: config.stockHolds.timeoutMs,
        }),
      ];
      for (const worker of background) worker.start();
      onShutdown(() => Promise.all(background.map((worker) => worker.stop())));
      return { app };
    },
  });
}
