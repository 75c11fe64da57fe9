import {
  batched,
  databaseGauge,
  startService,
  type StartedService,
  type StartOptions,
} from '@petstore/service-kit';
import { createApp } from './app.js';
import type { StoreConfig } from './config.js';
import { storeEvents } from './events.js';
import { createIdempotency } from './idempotency/idempotency.js';
import { idempotencySweeper } from './idempotency/idempotency-sweeper.js';
import { createInventory } from './inventory/inventory.js';
import { holdSweeper } from './inventory/stock-holds.js';
import { createOrders } from './orders/orders.js';
import { outboxWorker } from './outbox/outbox-worker.js';
import { createStatusChanges } from './outbox/status-changes.js';
import { statusReconciliation } from './outbox/status-reconciliation.js';
import { createPetCheck } from './pets-service/pet-check.js';
import { createPetsAdapter } from './pets-service/pets-adapter.js';
import { IdempotencyRepository } from './repositories/idempotency-repository.js';
import { ensureIndexes } from './repositories/indexes.js';
import { InventoryRepository, type OrderMark } from './repositories/inventory-repository.js';
import { OrderRepository } from './repositories/order-repository.js';
import { OutboxRepository } from './repositories/outbox-repository.js';

export interface StartStoreOptions extends StartOptions {
  validateResponses?: boolean;
}

const HOUR_MS = 60 * 60 * 1000;

// How long the release of a stored order's stock hold waits for those of the orders right behind
// it: a stream of orders then costs one write per wait for its releases, not one per order.
const HOLD_RELEASE_LINGER_MS = 25;

/** The store's composition root: builds every part once, starts the background work, listens. */
export function startStore(
  config: StoreConfig,
  { validateResponses, ...options }: StartStoreOptions = {},
): Promise<StartedService> {
  return startService({
    name: 'store',
    config,
    ...options,
    setUp: async ({ database: { db }, logger, onShutdown }) => {
      await ensureIndexes(db);
      const log = (component: string) => logger.child({ component });
      const orders = new OrderRepository(db);
      const inventory = new InventoryRepository(db);
      const outbox = new OutboxRepository(db);
      const keys = new IdempotencyRepository(db);
      const { internalToken } = config;
      const { urls: baseUrls, timeoutMs, confirmedForMs } = config.pets;
      const pets = createPetsAdapter({ baseUrls, internalToken, timeoutMs });
      const events = storeEvents(db, config, log('events'));
      const pusher = outboxWorker(outbox, inventory, pets, log('outbox'), config.outbox);
      const statusChanges = createStatusChanges(outbox, () => pusher.kick());
      const stock = { orders, inventory, statusChanges };
      const petCheck = createPetCheck(pets, inventory, confirmedForMs);
      const holdReleases = batched({
        lingerMs: HOLD_RELEASE_LINGER_MS,
        flush: (holds: OrderMark[]) => inventory.releaseHolds(holds),
      });
      onShutdown(() => holdReleases.flushed());
      const app = createApp({
        db,
        logger,
        internalToken,
        validateResponses,
        orders: createOrders({
          ...stock,
          petCheck,
          idempotency: createIdempotency(keys, logger),
          events: events.orders,
          holdReleases,
        }),
        inventory: createInventory({
          inventory,
          petCheck,
          statusChanges,
          events: events.inventory,
        }),
      });
      databaseGauge(
        'petstore_outbox_backlog',
        'Pets whose status push is owed.',
        async () => (await outbox.backlog()).size,
      );
      databaseGauge(
        'petstore_outbox_oldest_age_seconds',
        'How long the oldest owed status push has waited (0 when none).',
        async () => {
          const { oldest } = await outbox.backlog();
          return oldest ? (Date.now() - oldest.getTime()) / 1000 : 0;
        },
      );
      const background = [
        pusher,
        events.relay,
        statusReconciliation(
          inventory,
          pets,
          statusChanges,
          log('status-reconciliation'),
          config.outbox.reconcileIntervalMs,
        ),
        idempotencySweeper(keys, logger, HOUR_MS),
        holdSweeper(stock, log('stock-holds'), config.stockHolds),
      ];
      for (const worker of background) worker.start();
      onShutdown(() => Promise.all(background.map((worker) => worker.stop())));
      return { app };
    },
  });
}
