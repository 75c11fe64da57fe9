import {
  createLogger,
  openServiceDatabase,
  runService,
  startTelemetry,
  type Logger,
} from '@petstore/service-kit';
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

export interface RunningPets {
  /** e.g. `http://127.0.0.1:3001`. */
  url: string;
  /** Stops accepting, finishes in-flight requests, then closes the database connection. */
  close(): Promise<void>;
}

/** Connects to the database, ensures its indexes and serves the pets service. */
export async function startPets(
  config: PetsConfig,
  options: StartPetsOptions = {},
): Promise<RunningPets> {
  const logger = options.logger ?? createLogger({ name: 'pets', level: config.logLevel });
  const telemetry = await startTelemetry({
    service: 'pets',
    host: config.http.host,
    metricsPort: config.metrics.port,
  });
  const database = await openServiceDatabase({
    uri: config.mongo.uri,
    database: config.mongo.database,
    service: 'pets',
    logger,
  }).catch(async (error: unknown) => {
    await telemetry.close();
    throw error;
  });
  try {
    const { db } = database;
    await ensureIndexes(db);
    const running = await runService({
      app: createApp({ db, config, logger }),
      ...config.http,
      port: options.port ?? config.http.port,
      logger,
      onShutdown: [() => database.close(), () => telemetry.close()],
      signals: options.signals,
    });
    return { url: running.url, close: () => running.close() };
  } catch (error) {
    await database.close();
    await telemetry.close();
    throw error;
  }
}
