import {
  createService,
  databaseGauge,
  EVENTS_TOPIC,
  eventsSender,
  createIdempotency,
  IdempotencyRepository,
  inTransaction,
  Outbox,
  outboxRelay,
  startService,
  type StartedService,
  type StartOptions,
  type Transaction,
} from '@petstore/service-kit';
import type { StoreConfig } from './config.js';
import { createInventory } from './inventory/inventory.js';
import { createOrders } from './orders/orders.js';
import { statusReconciliation } from './outbox/status-reconciliation.js';
import { STATUS_TOPIC, statusPushSender } from './events.js';
import {
  createPetCheck,
  createPetsAdapter,
} from './pets-service/pets-adapter.js';
import { createStoreRouter } from './routes.js';
import { ensureIndexes } from './repositories/indexes.js';
import { InventoryRepository } from './repositories/inventory-repository.js';
import { OrderRepository } from './repositories/order-repository.js';

export interface StartStoreOptions extends StartOptions {
  validateResponses?: boolean;
}

/** The store's composition root: builds every part once, starts the background work, listens. */
export function startStore(
  config: StoreConfig,
  { validateResponses, ...options }: StartStoreOptions = {},
): Promise<StartedService> {
  return startService({
    name: 'store',
    config,
    ...options,
    setUp: async ({ database: { client, db }, logger, onShutdown }) => {
      await ensureIndexes(db);
      const log = (component: string) => logger.child({ component });
      const transaction: Transaction = (work) => inTransaction(client, work);
      const orders = new OrderRepository(db);
      const inventory = new InventoryRepository(db);
      const idempotency = createIdempotency(
        new IdempotencyRepository(db),
        transaction,
      );
      const outbox = new Outbox(db);
      const { internalToken } = config;
      const { urls: baseUrls, timeoutMs, confirmedForMs } = config.pets;
      const pets = createPetsAdapter({ baseUrls, internalToken, timeoutMs });
      const petCheck = createPetCheck(pets, confirmedForMs);
      const relay = outboxRelay({
        outbox,
        senders: {
          [EVENTS_TOPIC]: eventsSender({
            baseUrls: config.gateway.urls,
            internalToken,
          }),
          [STATUS_TOPIC]: statusPushSender(pets, log('outbox')),
        },
        logger: log('outbox'),
        pollMs: config.events.relayIntervalMs,
        backoff: { baseMs: 100, maxMs: config.outbox.maxBackoffMs },
      });
      const shared = { inventory, outbox, petCheck, transaction };
      const useCases = {
        orders: createOrders({ ...shared, orders, idempotency }),
        inventory: createInventory(shared),
      };
      const app = createService({
        name: 'store',
        logger,
        internalToken,
        routers: [createStoreRouter(useCases, validateResponses).routes()],
        readiness: { database: () => db.command({ ping: 1 }) },
      });
      databaseGauge(
        'petstore_outbox_backlog',
        'Messages in the outbox.',
        async () => (await outbox.backlog()).size,
      );
      databaseGauge(
        'petstore_outbox_oldest_age_seconds',
        'How long the oldest message in the outbox has waited (0 when none).',
        async () => {
          const { oldest } = await outbox.backlog();
          return oldest ? (Date.now() - oldest.getTime()) / 1000 : 0;
        },
      );
      const background = [
        relay,
        statusReconciliation({
          ...shared,
          pets,
          logger: log('status-reconciliation'),
          intervalMs: config.outbox.reconcileIntervalMs,
        }),
      ];
      for (const worker of background) worker.start();
      onShutdown(() => Promise.all(background.map((worker) => worker.stop())));
      return { app };
    },
  });
}
