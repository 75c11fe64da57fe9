import { getPetDeprecatedAt, getPetSunset } from '@petstore/contract';
import {
  envHttpUrls,
  envInstant,
  envInteger,
  envOptionalHttpUrl,
  loadConfig,
  serviceConfig,
  serviceEnv,
  unsetWhenEmpty,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';
import { API_KEY_PATTERN } from './auth/api-key-secret.js';
import { envCorsOrigins } from './cors/cors.js';
import { webhookSecretsKey } from './webhooks/webhook-secret.js';

function envRate(defaultValue: number) {
  const message = 'Expected a positive number';
  return unsetWhenEmpty(
    z
      .string()
      .regex(/^\d{1,9}(\.\d{1,9})?$/, message)
      .transform(Number)
      .refine((value) => value > 0, message)
      .default(String(defaultValue)),
  );
}

function envSecret(pattern: RegExp, message: string) {
  return unsetWhenEmpty(z.string().regex(pattern, message).optional());
}

const delaysMessage =
  'Expected comma-separated positive whole numbers of milliseconds';

const GatewayEnvSchema = z
  .object({
    ...serviceEnv({ port: 8080, database: 'petstore_gateway' }),
    PETS_URL: envHttpUrls('http://127.0.0.1:3001'),
    STORE_URL: envHttpUrls('http://127.0.0.1:3002'),
    PUBLIC_URL: envOptionalHttpUrl(),
    ADMIN_API_KEY: envSecret(
      API_KEY_PATTERN,
      'Expected psk_ followed by 32–128 base62 characters',
    ),
    UPSTREAM_TIMEOUT_MS: envInteger(5_000, { min: 1, max: 600_000 }),
    RATE_LIMIT_PER_SECOND: envRate(100),
    RATE_LIMIT_BURST: envInteger(200, { min: 1, max: 1_000_000 }),
    ACCOUNT_MAX_IN_FLIGHT: envInteger(64, { min: 1, max: 100_000 }),
    SIGNUP_RATE_LIMIT_PER_MINUTE: envRate(20),
    SIGNUP_RATE_LIMIT_BURST: envInteger(5, { min: 1, max: 1_000_000 }),
    // At most 1 s: a key revoked through one gateway is refused by every other within it.
    KEY_CACHE_TTL_MS: envInteger(1_000, { min: 0, max: 1_000 }),
    KEY_CACHE_SIZE: envInteger(10_000, { min: 0, max: 10_000_000 }),
    KEY_USAGE_FLUSH_MS: envInteger(5_000, { min: 10, max: 3_600_000 }),
    MESSAGE_POLL_MS: envInteger(30_000, { min: 10, max: 600_000 }),
    MESSAGE_LEASE_MS: envInteger(30_000, { min: 100, max: 3_600_000 }),
    TRUSTED_PROXY_HOPS: envInteger(0, { min: 0, max: 10 }),
    CORS_ORIGINS: envCorsOrigins(),
    // The contract's dates by default, so that the document and pets agree.
    GET_PET_DEPRECATED_AT: envInstant(getPetDeprecatedAt),
    GET_PET_SUNSET: envInstant(getPetSunset),
    WEBHOOK_ALLOW_PRIVATE_URLS: unsetWhenEmpty(
      z
        .enum(['true', 'false'], { message: 'Expected true or false' })
        .default('false')
        .transform((value) => value === 'true'),
    ),
    WEBHOOK_SECRETS_KEY: envSecret(
      /^[A-Za-z0-9+/]{43}=$/,
      'Expected the base64 of 32 bytes (openssl rand -base64 32)',
    ),
    WEBHOOK_RETRY_DELAYS_MS: unsetWhenEmpty(
      z
        .string()
        .regex(/^\s*\d{1,15}\s*(,\s*\d{1,15}\s*)*$/, delaysMessage)
        .default('5000,300000,1800000,7200000,18000000,36000000,36000000')
        .transform((value) => value.split(',').map(Number))
        .refine((delays) => delays.every((delay) => delay > 0), delaysMessage),
    ),
    WEBHOOK_DISABLE_AFTER_MS: envInteger(432_000_000, {
      min: 1,
      max: 31_536_000_000,
    }),
    WEBHOOK_POLL_MS: envInteger(30_000, { min: 10, max: 600_000 }),
    WEBHOOK_LEASE_MS: envInteger(30_000, { min: 100, max: 3_600_000 }),
    WEBHOOK_TIMEOUT_MS: envInteger(10_000, { min: 1, max: 600_000 }),
    WEBHOOK_RETENTION_MS: envInteger(2_592_000_000, {
      min: 1,
      max: 31_536_000_000,
    }),
  })
  .transform((env) => ({
    ...serviceConfig(env),
    publicUrl: env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`,
    trustedProxyHops: env.TRUSTED_PROXY_HOPS,
    corsOrigins: env.CORS_ORIGINS,
    services: { pets: env.PETS_URL, store: env.STORE_URL },
    upstream: { timeoutMs: env.UPSTREAM_TIMEOUT_MS },
    adminApiKey: env.ADMIN_API_KEY,
    maxInFlightPerAccount: env.ACCOUNT_MAX_IN_FLIGHT,
    rateLimit: {
      account: {
        perSecond: env.RATE_LIMIT_PER_SECOND,
        burst: env.RATE_LIMIT_BURST,
      },
      address: {
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
    getPetDeprecation: {
      deprecatedAt: env.GET_PET_DEPRECATED_AT,
      sunsetAt: env.GET_PET_SUNSET,
    },
    webhooks: {
      allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
      secretsKey: webhookSecretsKey(
        env.INTERNAL_TOKEN,
        env.WEBHOOK_SECRETS_KEY,
      ),
      retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS,
      disableAfterMs: env.WEBHOOK_DISABLE_AFTER_MS,
      pollMs: env.WEBHOOK_POLL_MS,
      leaseMs: env.WEBHOOK_LEASE_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      retentionMs: env.WEBHOOK_RETENTION_MS,
    },
  }));

export type Config = z.output<typeof GatewayEnvSchema>;

export function loadGatewayConfig(env: Env = process.env): Config {
  return loadConfig(GatewayEnvSchema, env);
}
