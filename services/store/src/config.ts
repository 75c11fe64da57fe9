import {
  envHost,
  envLogLevel,
  envMongoUri,
  envPort,
  loadConfig,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';

// An empty variable counts as unset, as in service-kit's helpers.
function optional<Schema extends z.ZodTypeAny>(schema: Schema) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

function milliseconds(defaultMs: number, { min = 1 } = {}) {
  return optional(
    z
      .string()
      .regex(/^\d{1,9}$/, 'Expected a whole number of milliseconds')
      .transform(Number)
      .refine((value) => value >= min, `Expected at least ${min} ms`)
      .default(String(defaultMs)),
  );
}

const StoreEnvSchema = z
  .object({
    PORT: envPort(3002),
    HOST: envHost(),
    MONGODB_URI: envMongoUri().default('mongodb://127.0.0.1:27017'),
    MONGODB_DB: optional(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,63}$/, 'Expected a database name (letters, digits, _ and -)')
        .default('petstore_store'),
    ),
    INTERNAL_TOKEN: optional(
      z
        .string({ required_error: 'Required' })
        .min(32, 'Expected a secret of at least 32 characters'),
    ),
    LOG_LEVEL: envLogLevel(),
    PETS_URL: optional(z.string().url().default('http://127.0.0.1:3001')),
    PETS_TIMEOUT_MS: milliseconds(2_000),
    OUTBOX_INTERVAL_MS: milliseconds(1_000),
    OUTBOX_MAX_BACKOFF_MS: milliseconds(5_000),
    STOCK_HOLD_TIMEOUT_MS: milliseconds(30_000),
    STOCK_HOLD_SWEEP_MS: milliseconds(5_000),
  })
  .transform((env) => ({
    http: { host: env.HOST, port: env.PORT },
    mongo: { uri: env.MONGODB_URI, database: env.MONGODB_DB },
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    pets: { url: env.PETS_URL, timeoutMs: env.PETS_TIMEOUT_MS },
    outbox: { intervalMs: env.OUTBOX_INTERVAL_MS, maxBackoffMs: env.OUTBOX_MAX_BACKOFF_MS },
    stockHolds: { timeoutMs: env.STOCK_HOLD_TIMEOUT_MS, sweepIntervalMs: env.STOCK_HOLD_SWEEP_MS },
  }));

/** The store's settings, nested by concern; see the README for each variable. */
export type StoreConfig = z.output<typeof StoreEnvSchema>;

/** Parses the environment once; throws naming every missing or invalid variable. */
export function loadStoreConfig(env: Env = process.env): StoreConfig {
  return loadConfig(StoreEnvSchema, env);
}
