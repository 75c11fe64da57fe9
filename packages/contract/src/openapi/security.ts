import type { SecurityRequirementObject, SecuritySchemeObject } from 'openapi3-ts/oas30';
import type { RouteMetadata } from '../metadata.js';

export const bearerAuthName = 'bearerAuth';

export const bearerAuth: SecuritySchemeObject = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'API key',
  description:
    'An API key (`psk_…`), shown once when an account or a key is created: ' +
    '`Authorization: Bearer <API key>`.',
};

/** The bearer key where an operation needs one, else `[]`: public, not forgotten. */
export function operationSecurity(metadata: RouteMetadata): SecurityRequirementObject[] {
  return metadata.auth === 'key' ? [{ [bearerAuthName]: [] }] : [];
}
