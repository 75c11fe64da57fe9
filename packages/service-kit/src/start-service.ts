import type Koa from 'koa';
import type { Db, MongoClient } from 'mongodb';
import { createLogger, type Logger } from './logger.js';
import { connectMongo } from './mongo.js';
import { runHooks, runService, type ShutdownHook } from './run-service.js';
import type { ServiceConfig } from './config.js';
import { startTelemetry } from './telemetry/telemetry.js';

export interface ServiceSetUp {
  database: { client: MongoClient; db: Db };
  logger: Logger;
  /** Runs `hook` on stop, or at once if the start fails later; last registered first. */
  onShutdown: (hook: ShutdownHook) => void;
}

export interface StartServiceOptions {
  name: string;
  config: ServiceConfig;
  logger?: Logger;
  signals?: NodeJS.Signals[];
  port?: number;
  setUp: (
    setUp: ServiceSetUp,
  ) => Promise<{ app: Koa; onListening?: () => void }>;
}

export type StartOptions = Pick<
  StartServiceOptions,
  'logger' | 'signals' | 'port'
>;

export interface StartedService extends AsyncDisposable {
  url: string;
  close(): Promise<void>;
}

// If a step fails, what the steps before it opened is closed again.
export async function startService(
  options: StartServiceOptions,
): Promise<StartedService> {
  const { name, config, signals, port = config.http.port, setUp } = options;
  const logger =
    options.logger ?? createLogger({ name, level: config.logLevel });
  const { host } = config.http;
  const telemetry = await startTelemetry(name, host, config.metrics.port);
  const hooks: ShutdownHook[] = [() => telemetry.close()];
  const onShutdown = (hook: ShutdownHook) => void hooks.unshift(hook);
  try {
    const client = await connectMongo(config.mongo.uri, { appName: name });
    onShutdown(() => client.close());
    const database = { client, db: client.db(config.mongo.database) };
    const { app, onListening } = await setUp({ database, logger, onShutdown });
    const running = await runService({
      app,
      ...config.http,
      port,
      logger,
      signals,
      onShutdown: hooks,
    });
    onListening?.();
    const { url, close } = running;
    return { url, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    // Each failure is logged; the error that stopped the start is the one to throw.
    await runHooks(hooks, logger).catch(() => undefined);
    throw error;
  }
}
