import { startService, type StartedService, type StartOptions } from '@petstore/service-kit';
import { createApp } from './app.js';
import type { PetsConfig } from './config.js';
import { petEvents, petsEventRelay } from './events.js';
import { ensureIndexes } from './indexes.js';

export type StartPetsOptions = StartOptions;

export type RunningPets = StartedService;

/**
 * Connects to the database, ensures its indexes, starts the relay of its events to the gateway
 * and serves the pets service.
 */
export function startPets(
  config: PetsConfig,
  options: StartPetsOptions = {},
): Promise<RunningPets> {
  return startService({
    name: 'pets',
    config,
    ...options,
    setUp: async ({ database: { db }, logger, onShutdown }) => {
      await ensureIndexes(db);
      const events = petEvents(db, config);
      const relay = petsEventRelay(events, config, logger.child({ component: 'events' }));
      relay.start();
      onShutdown(() => relay.stop());
      return {
        app: createApp({ db, config, logger, events, wakeEventRelay: () => relay.kick() }),
      };
    },
  });
}
