import { initContract } from '@ts-rest/core';
import { errors } from './error-responses.js';
import { IdParamSchema } from './ids.js';
import type { RouteMetadata } from './metadata.js';
import { PetSchema, PetStatusSchema } from './pet-schemas.js';
import { requestBody } from './request-body.js';
import { z } from './zod.js';

const c = initContract();

const metadata = { service: 'pets', auth: 'internal' } satisfies RouteMetadata;

const PetPathSchema = z.object({ petId: IdParamSchema });

export const PetStatusUpdateSchema = z.object({ status: PetStatusSchema });
export type PetStatusUpdate = z.infer<typeof PetStatusUpdateSchema>;

/** What the store asks of the pets service, with `x-internal-token`; the gateway never routes it. */
export const internalPets = c.router({
  getPet: {
    method: 'GET',
    path: '/internal/pets/:petId',
    pathParams: PetPathSchema,
    summary: 'Get a pet for another service',
    responses: { 200: PetSchema, ...errors(400, 401, 404, 500, 503) },
    metadata,
  },
  setPetStatus: {
    method: 'PUT',
    path: '/internal/pets/:petId/status',
    pathParams: PetPathSchema,
    body: requestBody(PetStatusUpdateSchema),
    summary: 'Set the status the store derives from stock',
    responses: { 200: PetSchema, ...errors(400, 401, 404, 413, 500, 503) },
    metadata,
  },
});
