import { routeMetadata, contract } from '@petstore/contract';
import {
  envHost,
  envLogLevel,
  envMongoUri,
  envPort,
  loadConfig,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';

/** The sunset the contract announces for `GET /v1/pets/{petId}` (`x-sunset`). */
const contractSunset = routeMetadata(contract.pets.getPet).sunset ?? '2027-06-30T00:00:00Z';

// An empty variable counts as unset, as in service-kit's helpers.
function optional<Schema extends z.ZodTypeAny>(schema: Schema) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

function instant(defaultValue: string) {
  return optional(
    z
      .string()
      .datetime({
        offset: true,
        message: 'Expected an ISO 8601 date-time, e.g. 2027-06-30T00:00:00Z',
      })
      .default(defaultValue)
      .transform((value) => new Date(value)),
  );
}

const PetsEnvSchema = z
  .object({
    HOST: envHost(),
    PORT: envPort(3001),
    MONGODB_URI: envMongoUri().default('mongodb://127.0.0.1:27017'),
    MONGODB_DB: optional(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,63}$/, 'Expected a database name (letters, digits, _ and -)')
        .default('petstore_pets'),
    ),
    INTERNAL_TOKEN: optional(
      z.string({ required_error: 'Required' }).min(32, 'Expected at least 32 characters'),
    ),
    LOG_LEVEL: envLogLevel(),
    GET_PET_DEPRECATED_AT: instant('2026-01-01T00:00:00Z'),
    GET_PET_SUNSET: instant(contractSunset),
  })
  .transform((env) => ({
    http: { host: env.HOST, port: env.PORT },
    mongo: { uri: env.MONGODB_URI, database: env.MONGODB_DB },
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    /** `GET /v1/pets/{petId}`: when it was deprecated and when it stops answering (410). */
    getPetDeprecation: { deprecatedAt: env.GET_PET_DEPRECATED_AT, sunsetAt: env.GET_PET_SUNSET },
  }));

export type PetsConfig = z.output<typeof PetsEnvSchema>;

/**
 * The pets service's configuration from the environment, parsed once; throws naming every missing
 * or invalid variable.
 */
export function loadPetsConfig(env: Env = process.env): PetsConfig {
  return loadConfig(PetsEnvSchema, env);
}
