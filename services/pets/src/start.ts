import { startService, type StartedService, type StartOptions } from '@petstore/service-kit';
import { createApp } from './app.js';
import type { PetsConfig } from './config.js';
import { ensureIndexes } from './indexes.js';

export type StartPetsOptions = StartOptions;

export type RunningPets = StartedService;

/** Connects to the database, ensures its indexes and serves the pets service. */
export function startPets(
  config: PetsConfig,
  options: StartPetsOptions = {},
): Promise<RunningPets> {
  return startService({
    name: 'pets',
    config,
    ...options,
    setUp: async ({ database: { db }, logger }) => {
      await ensureIndexes(db);
      return { app: createApp({ db, config, logger }) };
    },
  });
}
