import type Koa from 'koa';
import { createLogger, type Logger } from './logger.js';
import { runHooks, runService, type ShutdownHook } from './run-service.js';
import { openServiceDatabase, type ServiceDatabase } from './service-database.js';
import type { ServiceConfig } from './service-env.js';
import { startTelemetry } from './telemetry/start-telemetry.js';

export interface ServiceSetUp {
  database: ServiceDatabase;
  logger: Logger;
  /**
   * Has `hook` run when the service stops, or at once if starting fails after this call. Hooks run
   * last registered first, all before the database closes.
   */
  onShutdown: (hook: ShutdownHook) => void;
}

export interface ServiceParts {
  app: Koa;
  /** Starts what should run only once the service listens (background work, timers). */
  onListening?: () => void;
}

export interface StartServiceOptions {
  /** e.g. `pets`: the logger's name, the database's `appName`, the traces' service. */
  name: string;
  config: ServiceConfig;
  /** Defaults to a logger named `name` at the configured level. */
  logger?: Logger;
  /** Signals that shut the service down and exit the process; `[]` (tests) for none. */
  signals?: NodeJS.Signals[];
  /** Overrides `config.http.port`; 0 picks a free port. */
  port?: number;
  /** Builds the service on its open database: indexes, repositories, background work, the app. */
  setUp: (setUp: ServiceSetUp) => Promise<ServiceParts>;
}

/** What a service's own start function takes from its caller (main.ts, or a test). */
export type StartOptions = Pick<StartServiceOptions, 'logger' | 'signals' | 'port'>;

export interface StartedService extends AsyncDisposable {
  /** Where it listens, e.g. `http://127.0.0.1:3001`. */
  url: string;
  /** Stops accepting, lets requests finish, runs the shutdown hooks, closes the database. */
  close(): Promise<void>;
}

/**
 * What every service does to start: telemetry, then its database, then what `setUp` builds on it,
 * then listening. If a step fails, what the steps before it opened is closed again.
 */
export async function startService({
  name,
  config,
  logger = createLogger({ name, level: config.logLevel }),
  signals,
  port = config.http.port,
  setUp,
}: StartServiceOptions): Promise<StartedService> {
  const telemetry = await startTelemetry({
    service: name,
    host: config.http.host,
    metricsPort: config.metrics.port,
  });
  const hooks: ShutdownHook[] = [() => telemetry.close()];
  const onShutdown = (hook: ShutdownHook) => void hooks.unshift(hook);
  try {
    const database = await openServiceDatabase({ ...config.mongo, service: name });
    onShutdown(() => database.close());
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
    const close = () => running.close();
    return { url: running.url, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    // Each failure is logged; the error that stopped the start is the one to throw.
    await runHooks(hooks, logger).catch(() => undefined);
    throw error;
  }
}
