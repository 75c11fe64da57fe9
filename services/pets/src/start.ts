import {
  EVENTS_TOPIC,
  eventsSender,
  createIdempotency,
  IdempotencyRepository,
  inTransaction,
  Outbox,
  outboxRelay,
  startService,
  type Logger,
  type Transaction,
  type StartedService,
  type StartOptions,
} from '@petstore/service-kit';
import type { Db, MongoClient } from 'mongodb';
import { createApp, type AppDeps } from './app.js';
import { createCatalogue } from './catalogue.js';
import { CategoriesRepository } from './categories-repository.js';
import type { PetsConfig } from './config.js';
import { ensureIndexes } from './indexes.js';
import { PetsRepository } from './pets-repository.js';

/** Everything `createApp` is given, on `db`: the one place the service's parts are built. */
export function petsDeps(
  client: MongoClient,
  db: Db,
  config: PetsConfig,
  logger: Logger,
): AppDeps {
  const pets = new PetsRepository(db);
  const categories = new CategoriesRepository(db);
  const outbox = new Outbox(db);
  const transaction: Transaction = (work) => inTransaction(client, work);
  const idempotency = createIdempotency(
    new IdempotencyRepository(db),
    transaction,
  );
  const catalogue = createCatalogue({
    pets,
    categories,
    outbox,
    idempotency,
    transaction,
  });
  return { db, config, logger, pets, categories, catalogue };
}

/** Ensures the indexes, starts the relay of the pets' events to the gateway and serves. */
export function startPets(
  config: PetsConfig,
  options: StartOptions = {},
): Promise<StartedService> {
  return startService({
    name: 'pets',
    config,
    ...options,
    setUp: async ({ database: { client, db }, logger, onShutdown }) => {
      await ensureIndexes(db);
      const { internalToken } = config;
      const relay = outboxRelay({
        outbox: new Outbox(db),
        senders: {
          [EVENTS_TOPIC]: eventsSender({
            baseUrls: config.gateway.urls,
            internalToken,
          }),
        },
        logger: logger.child({ component: 'outbox' }),
        pollMs: config.events.relayIntervalMs,
      });
      relay.start();
      onShutdown(() => relay.stop());
      return { app: createApp(petsDeps(client, db, config, logger)) };
    },
  });
}
