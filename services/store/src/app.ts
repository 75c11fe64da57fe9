import { afterWrites, createService, type Logger } from '@petstore/service-kit';
import type Koa from 'koa';
import type { Db } from 'mongodb';
import type { StoreConfig } from './config.js';
import {
  createIdempotency,
  defaultIdempotencyOptions,
  type IdempotencyOptions,
} from './idempotency/idempotency.js';
import { createInventory } from './inventory/inventory.js';
import { createOrders } from './orders/orders.js';
import { createPetCheck } from './pets-service/pet-check.js';
import { createPetsAdapter, type PetsAdapter } from './pets-service/pets-adapter.js';
import { createRepository } from './repository.js';
import { createStoreRouter } from './routes.js';
import { createStatusChanges } from './outbox/status-changes.js';

export interface AppDeps {
  db: Db;
  config: StoreConfig;
  logger: Logger;
  now?: () => Date;
  /** The pets service; by default the typed internal client at `config.pets.url`. */
  pets?: PetsAdapter;
  /** Called after a trigger recorded a status push, to push it promptly (the outbox worker). */
  wakeOutbox?: () => void;
  /** Called after every write that succeeded (each may record events), to hand them over promptly. */
  wakeEventRelay?: () => void;
  idempotency?: Partial<IdempotencyOptions>;
  /** Checks every response against the contract (on in tests). */
  validateResponses?: boolean;
}

/** The store's Koa app: orders and inventory behind the gateway's token. Builds; never listens. */
export function createApp({
  db,
  config,
  logger,
  now = () => new Date(),
  pets = createPetsAdapter({
    baseUrls: config.pets.urls,
    internalToken: config.internalToken,
    timeoutMs: config.pets.timeoutMs,
  }),
  wakeOutbox = () => {},
  wakeEventRelay = () => {},
  idempotency = {},
  validateResponses = false,
}: AppDeps): Koa {
  const repository = createRepository(db);
  const statusChanges = createStatusChanges(repository, now, wakeOutbox);
  const petCheck = createPetCheck({
    pets,
    inventory: repository.inventory,
    confirmedForMs: config.pets.confirmedForMs,
  });
  const orders = createOrders({
    repository,
    petCheck,
    statusChanges,
    idempotency: createIdempotency(repository.idempotency, now, logger, {
      ...defaultIdempotencyOptions,
      ...idempotency,
    }),
    now,
  });
  const inventory = createInventory({ repository, petCheck, statusChanges, now });
  return createService({
    name: 'store',
    logger,
    internalToken: config.internalToken,
    routers: [
      afterWrites(wakeEventRelay),
      createStoreRouter({ orders, inventory }, { validateResponses }).routes(),
    ],
    readiness: { database: () => db.command({ ping: 1 }) },
  });
}
