import { getPetDeprecatedAt, getPetSunset } from '@petstore/contract';
import { envInstant } from './env-variables.js';

/**
 * The variables that date the deprecation of `GET /v1/pets/{petId}`, read alike by pets (which
 * answers it) and the gateway (which marks the answers it gives itself): the contract's dates
 * unless told otherwise, so the services and the document agree.
 */
export const getPetDeprecationEnv = {
  GET_PET_DEPRECATED_AT: envInstant(getPetDeprecatedAt),
  GET_PET_SUNSET: envInstant(getPetSunset),
};

/** When `GET /v1/pets/{petId}` was deprecated and when it stops answering (410). */
export function getPetDeprecationOf(env: { GET_PET_DEPRECATED_AT: Date; GET_PET_SUNSET: Date }) {
  return { deprecatedAt: env.GET_PET_DEPRECATED_AT, sunsetAt: env.GET_PET_SUNSET };
}
