import { getPetDeprecatedAt, getPetSunset } from '@petstore/contract';
import { z } from 'zod';
import {
  envHost,
  envHttpUrls,
  envInstant,
  envInteger,
  envLogLevel,
  envMongoUri,
  envPort,
  unsetWhenEmpty,
} from './config.js';

export function serviceEnv({ port, database }: { port: number; database: string }) {
  return {
    PORT: envPort(port),
    HOST: envHost(),
    MONGODB_URI: envMongoUri('mongodb://127.0.0.1:27017'),
    MONGODB_DB: unsetWhenEmpty(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,63}$/, 'Expected a database name (letters, digits, _ and -)')
        .default(database),
    ),
    INTERNAL_TOKEN: unsetWhenEmpty(z.string().min(32, 'Expected at least 32 characters')),
    LOG_LEVEL: envLogLevel(),
    SHUTDOWN_DRAIN_MS: envInteger(0, { min: 0, max: 120_000 }),
    METRICS_PORT: envPort().optional(),
  };
}

export type ServiceEnv = z.output<z.ZodObject<ReturnType<typeof serviceEnv>>>;

export function serviceConfig(env: ServiceEnv) {
  return {
    http: { host: env.HOST, port: env.PORT, drainMs: env.SHUTDOWN_DRAIN_MS },
    mongo: { uri: env.MONGODB_URI, database: env.MONGODB_DB },
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    metrics: { port: env.METRICS_PORT },
  };
}

export type ServiceConfig = ReturnType<typeof serviceConfig>;

export const eventsEnv = {
  GATEWAY_URL: envHttpUrls('http://127.0.0.1:8080'),
  EVENT_RELAY_INTERVAL_MS: envInteger(1_000, { min: 10, max: 3_600_000 }),
};

export type EventsEnv = z.output<z.ZodObject<typeof eventsEnv>>;

export function eventsConfigOf(env: EventsEnv) {
  return {
    gateway: { urls: env.GATEWAY_URL },
    events: { relayIntervalMs: env.EVENT_RELAY_INTERVAL_MS },
  };
}

// Pets and the gateway default to the contract's dates, so that they agree with the document.
export const getPetDeprecationEnv = {
  GET_PET_DEPRECATED_AT: envInstant(getPetDeprecatedAt),
  GET_PET_SUNSET: envInstant(getPetSunset),
};

export function getPetDeprecationOf(env: { GET_PET_DEPRECATED_AT: Date; GET_PET_SUNSET: Date }) {
  return { deprecatedAt: env.GET_PET_DEPRECATED_AT, sunsetAt: env.GET_PET_SUNSET };
}
