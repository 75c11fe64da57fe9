import { getPetDeprecatedAt, getPetSunset } from '@petstore/contract';
import { envInstant, loadConfig, serviceConfig, serviceEnv, type Env } from '@petstore/service-kit';
import { z } from 'zod';

const PetsEnvSchema = z
  .object({
    ...serviceEnv({ port: 3001, database: 'petstore_pets' }),
    GET_PET_DEPRECATED_AT: envInstant(getPetDeprecatedAt),
    // The contract's sunset unless told otherwise, so the service and its document agree.
    GET_PET_SUNSET: envInstant(getPetSunset),
  })
  .transform((env) => ({
    ...serviceConfig(env),
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
