import { getPetDeprecatedAt, getPetSunset } from '@petstore/contract';
import {
  envInstant,
  eventsConfigOf,
  eventsEnv,
  loadConfig,
  serviceConfig,
  serviceEnv,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';

const PetsEnvSchema = z
  .object({
    ...serviceEnv({ port: 3001, database: 'petstore_pets' }),
    // The contract's dates by default, so that the document and the gateway agree.
    GET_PET_DEPRECATED_AT: envInstant(getPetDeprecatedAt),
    GET_PET_SUNSET: envInstant(getPetSunset),
    ...eventsEnv,
  })
  .transform((env) => ({
    ...serviceConfig(env),
    ...eventsConfigOf(env),
    getPetDeprecation: {
      deprecatedAt: env.GET_PET_DEPRECATED_AT,
      sunsetAt: env.GET_PET_SUNSET,
    },
  }));

export type PetsConfig = z.output<typeof PetsEnvSchema>;

/** Parsed once; throws naming every missing or invalid variable. */
export function loadPetsConfig(env: Env = process.env): PetsConfig {
  return loadConfig(PetsEnvSchema, env);
}
