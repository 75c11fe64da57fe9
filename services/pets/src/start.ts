import {
  eventRelay,
  eventSender,
  eventSource,
  startService,
  type Logger,
  type StartedService,
  type StartOptions,
} from '@petstore/service-kit';
import type { Db } from 'mongodb';
import { createApp, type AppDeps } from './app.js';
import { CategoriesRepository } from './categories-repository.js';
import type { PetsConfig } from './config.js';
import { ensureIndexes } from './indexes.js';
import { PetsRepository } from './pets-repository.js';
import { petsCollection } from './storage.js';

/** Everything `createApp` is given, on `db`: the one place the service's parts are built. */
export function petsDeps(db: Db, config: PetsConfig, logger: Logger): AppDeps {
  return {
    db,
    config,
    logger,
    pets: new PetsRepository(db),
    categories: new CategoriesRepository(db),
    events: {
      source: eventSource({
        collection: petsCollection(db),
        toData: (_pet, event) => event.data ?? {},
      }),
      send: eventSender({ baseUrls: config.gateway.urls, internalToken: config.internalToken }),
    },
  };
}

/** Ensures the indexes, starts the relay of the pets' events to the gateway and serves. */
export function startPets(config: PetsConfig, options: StartOptions = {}): Promise<StartedService> {
  return startService({
    name: 'pets',
    config,
    ...options,
    setUp: async ({ database: { db }, logger, onShutdown }) => {
      await ensureIndexes(db);
      const deps = petsDeps(db, config, logger);
      const relay = eventRelay({
        logger: logger.child({ component: 'events' }),
        sources: [deps.events.source],
        send: deps.events.send,
        idleMs: config.events.relayIntervalMs,
      });
      relay.start();
      onShutdown(() => relay.stop());
      return { app: createApp(deps) };
    },
  });
}
