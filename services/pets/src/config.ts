import {
  eventsConfigOf,
  eventsEnv,
  getPetDeprecationEnv,
  getPetDeprecationOf,
  loadConfig,
  serviceConfig,
  serviceEnv,
  type Env,
} from '@petstore/service-kit';
import { z } from 'zod';

const PetsEnvSchema = z
  .object({
    ...serviceEnv({ port: 3001, database: 'petstore_pets' }),
    ...getPetDeprecationEnv,
    ...eventsEnv,
  })
  .transform((env) => ({
    ...serviceConfig(env),
    ...eventsConfigOf(env),
    getPetDeprecation: getPetDeprecationOf(env),
  }));

export type PetsConfig = z.output<typeof PetsEnvSchema>;

/** Parsed once; throws naming every missing or invalid variable. */
export function loadPetsConfig(env: Env = process.env): PetsConfig {
  return loadConfig(PetsEnvSchema, env);
}
