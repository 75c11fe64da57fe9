import { startService, type Logger, type StartedService } from '@petstore/service-kit';
import { createApp } from './app.js';
import type { PetsConfig } from './config.js';
import { ensureIndexes } from './indexes.js';

export interface StartPetsOptions {
  /** Defaults to a logger named `pets` at the configured level. */
  logger?: Logger;
  /** Signals that shut the process down; `[]` leaves them to the caller (tests). */
  signals?: NodeJS.Signals[];
  /** Overrides `config.http.port`; 0 picks a free port. */
  port?: number;
}

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
