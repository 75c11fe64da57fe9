import {
  envHttpUrls,
  envInteger,
  eventsConfigOf,
  eventsEnv,
  loadConfig,
  serviceConfig,
  serviceEnv,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';

const milliseconds = (defaultMs: number) =>
  envInteger(defaultMs, { min: 1, max: 999_999_999 });

const StoreEnvSchema = z
  .object({
    ...serviceEnv({ port: 3002, database: 'petstore_store' }),
    ...eventsEnv,
    PETS_URL: envHttpUrls('http://127.0.0.1:3001'),
    PETS_TIMEOUT_MS: milliseconds(2_000),
    PET_CONFIRMED_MS: envInteger(1_000, { min: 0, max: 3_600_000 }),
    OUTBOX_MAX_BACKOFF_MS: milliseconds(5_000),
    STATUS_RECONCILE_MS: milliseconds(300_000),
  })
  .transform((env) => ({
    ...serviceConfig(env),
    ...eventsConfigOf(env),
    pets: {
      urls: env.PETS_URL,
      timeoutMs: env.PETS_TIMEOUT_MS,
      confirmedForMs: env.PET_CONFIRMED_MS,
    },
    outbox: {
      maxBackoffMs: env.OUTBOX_MAX_BACKOFF_MS,
      reconcileIntervalMs: env.STATUS_RECONCILE_MS,
    },
  }));

export type StoreConfig = z.output<typeof StoreEnvSchema>;

export function loadStoreConfig(env: Env = process.env): StoreConfig {
  return loadConfig(StoreEnvSchema, env);
}
