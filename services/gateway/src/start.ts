import {
  createLogger,
  databaseGauge,
  openServiceDatabase,
  runService,
  startTelemetry,
  type Logger,
} from '@petstore/service-kit';
import { AccountRepository } from './accounts/account-repository.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { ensureIndexes } from './database/indexes.js';
import { KeyUsage } from './auth/key-usage.js';
import { MessageRepository } from './messages/message-repository.js';
import { logDelivery, messageWorker } from './messages/message-worker.js';
import { closeUpstreams, createUpstreams } from './proxy/upstreams.js';

export interface StartGatewayOptions {
  logger?: Logger;
  /** Signals that shut the gateway down and exit the process; `[]` (tests) for none. */
  signals?: NodeJS.Signals[];
  /** Check the gateway's own answers against the contract (tests). */
  validateResponses?: boolean;
}

export interface RunningGateway {
  /** e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Stops accepting, finishes in-flight requests, stops the worker, flushes key uses, disconnects. */
  close(): Promise<void>;
}

/**
 * Connects to Mongo, ensures indexes and the admin account, then serves the gateway with its
 * background work: the message worker and the batched `lastUsedAt` writes.
 */
export async function startGateway(
  config: Config,
  { logger, signals, validateResponses }: StartGatewayOptions = {},
): Promise<RunningGateway> {
  const log = logger ?? createLogger({ name: 'gateway', level: config.logLevel });
  const telemetry = await startTelemetry({
    service: 'gateway',
    host: config.http.host,
    metricsPort: config.metrics.port,
  });
  const database = await openServiceDatabase({
    uri: config.mongo.uri,
    database: config.mongo.database,
    service: 'gateway',
    logger: log,
  }).catch(async (error: unknown) => {
    await telemetry.close();
    throw error;
  });
  const upstreams = createUpstreams(config);
  try {
    const { db } = database;
    await ensureIndexes(db, database);
    const accounts = new AccountRepository(db);
    const admin = await accounts.ensureAdmin(config.adminApiKey);
    if (admin === 'none') log.warn('ADMIN_API_KEY is not set: no key has the admin role');
    if (admin === 'revoked') {
      log.warn(
        'the ADMIN_API_KEY given was revoked through the API and stays revoked: set a new one',
      );
    }
    const keyUsage = new KeyUsage((uses) => accounts.recordKeyUses(uses), log);
    const messages = new MessageRepository(db);
    databaseGauge('petstore_message_queue_depth', 'Messages waiting for delivery.', () =>
      messages.countWaiting(),
    );
    const worker = messageWorker({
      messages,
      deliver: logDelivery(log),
      logger: log,
      pollMs: config.messages.pollMs,
      leaseMs: config.messages.leaseMs,
    });
    const app = createApp({
      db,
      singleProcess: database.singleProcess,
      config,
      logger: log,
      upstreams,
      keyUsage,
      onMessageQueued: () => worker.kick(),
      validateResponses,
    });
    const running = await runService({
      app,
      ...config.http,
      logger: log,
      signals,
      onShutdown: [
        () => worker.stop(),
        () => keyUsage.stop(),
        () => closeUpstreams(upstreams),
        () => database.close(),
        () => telemetry.close(),
      ],
    });
    keyUsage.start(config.keys.usageFlushMs);
    worker.start();
    return { url: running.url, close: () => running.close() };
  } catch (error) {
    await closeUpstreams(upstreams);
    await database.close();
    await telemetry.close();
    throw error;
  }
}
