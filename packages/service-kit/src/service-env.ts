import { z } from 'zod';
import {
  envHost,
  envInteger,
  envLogLevel,
  envMongoUri,
  envPort,
  unsetWhenEmpty,
} from './env-variables.js';

function envMongoDatabase(defaultName: string) {
  return unsetWhenEmpty(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/, 'Expected a database name (letters, digits, _ and -)')
      .default(defaultName),
  );
}

/** The secret the gateway and the services present as `x-internal-token`; required. */
function envInternalToken() {
  return unsetWhenEmpty(z.string().min(32, 'Expected at least 32 characters'));
}

/**
 * The variables every service reads: where it listens, its database, the token, its log level, and
 * how long it drains on SIGTERM.
 */
export function serviceEnv({ port, database }: { port: number; database: string }) {
  return {
    PORT: envPort(port),
    HOST: envHost(),
    MONGODB_URI: envMongoUri('mongodb://127.0.0.1:27017'),
    MONGODB_DB: envMongoDatabase(database),
    INTERNAL_TOKEN: envInternalToken(),
    LOG_LEVEL: envLogLevel(),
    SHUTDOWN_DRAIN_MS: envInteger(0, { min: 0, max: 120_000 }),
    METRICS_PORT: envPort().optional(),
  };
}

export type ServiceEnv = z.output<z.ZodObject<ReturnType<typeof serviceEnv>>>;

/** The variables of `serviceEnv`, nested as every service's config has them. */
export function serviceConfig(env: ServiceEnv) {
  return {
    /** Where it listens, and how long it drains on SIGTERM (`runService`'s options). */
    http: { host: env.HOST, port: env.PORT, drainMs: env.SHUTDOWN_DRAIN_MS },
    mongo: { uri: env.MONGODB_URI, database: env.MONGODB_DB },
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    /** Where Prometheus scrapes `/metrics` (on `http.host`); no metrics without it. */
    metrics: { port: env.METRICS_PORT },
  };
}

/** The part of every service's config that `startService` reads. */
export type ServiceConfig = ReturnType<typeof serviceConfig>;
