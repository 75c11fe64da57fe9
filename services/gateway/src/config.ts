import {
  envHttpUrls,
  getPetDeprecationEnv,
  getPetDeprecationOf,
  envInteger,
  envOptionalHttpUrl,
  loadConfig,
  serviceConfig,
  serviceEnv,
  unsetWhenEmpty,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';

/** A rate: a positive number, fractions allowed (`0.5` is one request every two seconds). */
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

/** The shape of every key this gateway issues or accepts: `psk_` and base62. */
export const API_KEY_PATTERN = /^psk_[A-Za-z0-9]{32,128}$/;

const GatewayEnvSchema = z
  .object({
    ...serviceEnv({ port: 8080, database: 'petstore_gateway' }),
    PETS_URL: envHttpUrls('http://127.0.0.1:3001'),
    STORE_URL: envHttpUrls('http://127.0.0.1:3002'),
    PUBLIC_URL: envOptionalHttpUrl(),
    ADMIN_API_KEY: unsetWhenEmpty(
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
    // At most 1 s: a key revoked through one gateway is refused by every other within it.
    KEY_CACHE_TTL_MS: envInteger(1_000, { min: 0, max: 1_000 }),
    KEY_CACHE_SIZE: envInteger(10_000, { min: 0, max: 10_000_000 }),
    KEY_USAGE_FLUSH_MS: envInteger(5_000, { min: 10, max: 3_600_000 }),
    MESSAGE_POLL_MS: envInteger(3_000, { min: 10, max: 600_000 }),
    MESSAGE_LEASE_MS: envInteger(30_000, { min: 100, max: 3_600_000 }),
    TRUSTED_PROXY_HOPS: envInteger(0, { min: 0, max: 10 }),
    ...getPetDeprecationEnv,
    RATE_LIMIT_POLICY: unsetWhenEmpty(
      z.enum(['local', 'cluster'], { message: 'Expected local or cluster' }).optional(),
    ),
  })
  .transform((env) => ({
    ...serviceConfig(env),
    /** Where clients reach the gateway: the document's `servers`. */
    publicUrl: env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`,
    /**
     * How many reverse proxies in front of the gateway append to `X-Forwarded-For`: the client's
     * address is the one the outermost of them added (0: the socket's address; the header, which
     * a client can write, is ignored).
     */
    trustedProxyHops: env.TRUSTED_PROXY_HOPS,
    services: { pets: env.PETS_URL, store: env.STORE_URL },
    upstream: { timeoutMs: env.UPSTREAM_TIMEOUT_MS },
    adminApiKey: env.ADMIN_API_KEY,
    rateLimit: {
      /**
       * `local`: token buckets in this gateway's memory; `cluster`: windows counted in the
       * database, one limit whatever the number of gateways. By default `local` on a database
       * the gateway holds alone (the embedded FerretDB), else `cluster`.
       */
      policy: env.RATE_LIMIT_POLICY,
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
    getPetDeprecation: getPetDeprecationOf(env),
  }));

export type Config = z.output<typeof GatewayEnvSchema>;

/** Reads the gateway's configuration from the environment; throws naming every bad variable. */
export function loadGatewayConfig(env: Env = process.env): Config {
  return loadConfig(GatewayEnvSchema, env);
}
