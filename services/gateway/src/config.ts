import {
  envHost,
  envLogLevel,
  envMongoUri,
  envPort,
  loadConfig,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';

// An empty variable (`PETS_URL=`) counts as unset, as in service-kit's helpers.
function variable<Schema extends z.ZodTypeAny>(schema: Schema) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

function envInteger(defaultValue: number, { min, max }: { min: number; max: number }) {
  const message = `Expected a whole number from ${min} to ${max}`;
  return variable(
    z
      .string()
      .regex(/^\d{1,15}$/, message)
      .transform(Number)
      .refine((value) => value >= min && value <= max, message)
      .default(String(defaultValue)),
  );
}

const httpUrl = z
  .string()
  .url('Expected an http:// or https:// URL')
  .refine((value) => /^https?:\/\//.test(value), 'Expected an http:// or https:// URL')
  .transform((value) => value.replace(/\/+$/, ''));

/** A rate: a positive number, fractions allowed (`0.5` is one request every two seconds). */
function envRate(defaultValue: number) {
  const message = 'Expected a positive number';
  return variable(
    z
      .string()
      .regex(/^\d{1,9}(\.\d{1,9})?$/, message)
      .transform(Number)
      .refine((value) => value > 0, message)
      .default(String(defaultValue)),
  );
}

function envHttpUrl(defaultUrl: string) {
  return variable(httpUrl.default(defaultUrl));
}

function envOptionalHttpUrl() {
  return variable(httpUrl.optional());
}

function envBoolean() {
  return variable(
    z
      .enum(['true', 'false', '1', '0'], { message: 'Expected true or false' })
      .default('false')
      .transform((value) => value === 'true' || value === '1'),
  );
}

/** The shape of every key this gateway issues or accepts: `psk_` and base62. */
export const API_KEY_PATTERN = /^psk_[A-Za-z0-9]{32,128}$/;

const GatewayEnvSchema = z
  .object({
    PORT: envPort(8080),
    HOST: envHost(),
    MONGODB_URI: variable(envMongoUri().default('mongodb://127.0.0.1:27017')),
    MONGODB_DB: variable(z.string().min(1).default('petstore_gateway')),
    INTERNAL_TOKEN: variable(z.string().min(32, 'Expected at least 32 characters')),
    LOG_LEVEL: envLogLevel(),
    PETS_URL: envHttpUrl('http://127.0.0.1:3001'),
    STORE_URL: envHttpUrl('http://127.0.0.1:3002'),
    PUBLIC_URL: envOptionalHttpUrl(),
    ADMIN_API_KEY: variable(
      z
        .string()
        .regex(API_KEY_PATTERN, 'Expected psk_ followed by 32–128 base62 characters')
        .optional(),
    ),
    UPSTREAM_TIMEOUT_MS: envInteger(5_000, { min: 1, max: 600_000 }),
    RATE_LIMIT_PER_SECOND: envRate(100),
    RATE_LIMIT_BURST: envInteger(200, { min: 1, max: 1_000_000 }),
    SIGNUP_RATE_LIMIT_PER_MINUTE: envRate(20),
    SIGNUP_RATE_LIMIT_BURST: envInteger(5, { min: 1, max: 1_000_000 }),
    KEY_CACHE_TTL_MS: envInteger(30_000, { min: 0, max: 3_600_000 }),
    KEY_CACHE_SIZE: envInteger(10_000, { min: 0, max: 10_000_000 }),
    KEY_USAGE_FLUSH_MS: envInteger(5_000, { min: 10, max: 3_600_000 }),
    MESSAGE_POLL_MS: envInteger(250, { min: 10, max: 600_000 }),
    MESSAGE_LEASE_MS: envInteger(30_000, { min: 100, max: 3_600_000 }),
    TRUST_PROXY: envBoolean(),
  })
  .transform((env) => ({
    http: { host: env.HOST, port: env.PORT },
    mongo: { uri: env.MONGODB_URI, database: env.MONGODB_DB },
    logLevel: env.LOG_LEVEL,
    internalToken: env.INTERNAL_TOKEN,
    /** Where clients reach the gateway: the document's `servers`. */
    publicUrl: env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`,
    /** Client addresses come from `X-Forwarded-For` only behind a trusted reverse proxy. */
    trustProxy: env.TRUST_PROXY,
    services: { pets: env.PETS_URL, store: env.STORE_URL },
    upstream: { timeoutMs: env.UPSTREAM_TIMEOUT_MS },
    adminApiKey: env.ADMIN_API_KEY,
    rateLimit: {
      perKey: { perSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST },
      signup: {
        perSecond: env.SIGNUP_RATE_LIMIT_PER_MINUTE / 60,
        burst: env.SIGNUP_RATE_LIMIT_BURST,
      },
    },
    keys: {
      cacheTtlMs: env.KEY_CACHE_TTL_MS,
      cacheSize: env.KEY_CACHE_SIZE,
      usageFlushMs: env.KEY_USAGE_FLUSH_MS,
    },
    messages: { pollMs: env.MESSAGE_POLL_MS, leaseMs: env.MESSAGE_LEASE_MS },
  }));

export type Config = z.output<typeof GatewayEnvSchema>;

/** Reads the gateway's configuration from the environment; throws naming every bad variable. */
export function loadGatewayConfig(env: Env = process.env): Config {
  return loadConfig(GatewayEnvSchema, env);
}
