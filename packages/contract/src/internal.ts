import { initContract } from '@ts-rest/core';
import { type ErrorCode, errors } from './errors.js';
import { RecordedEventSchema } from './event-schemas.js';
import { IdParamSchema, IdSchema } from './ids.js';
import { at, type RouteMetadata } from './contract-operations.js';
import { PetSchema, PetStatusSchema } from './pets.js';
import { requestBody } from './request-body.js';
import { z } from './zod.js';

const c = initContract();

const metadata = { service: 'pets', auth: 'internal' } satisfies RouteMetadata;

/** What any internal route answers beside its own codes: a bad request or token, a failure. */
const INTERNAL_ERRORS = [
  'validation_failed',
  'unauthorized',
  'internal_error',
  'service_unavailable',
] as const;
const internalErrors = <const TCodes extends readonly ErrorCode[]>(
  ...codes: TCodes
) => errors(...INTERNAL_ERRORS, ...codes);
const BODY = [
  'invalid_json',
  'unsupported_content_type',
  'payload_too_large',
] as const;

const PetPathSchema = z.object({ petId: IdParamSchema });

/** A status the store derived, with its stock version: pets keeps it only over an older one. */
export const PetStatusUpdateSchema = z
  .object({
    status: PetStatusSchema,
    version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

/** Repeated: `?petId=1&petId=2`. */
export const PetStatusesQuerySchema = z
  .object({ petId: z.array(IdParamSchema).min(1).max(100) })
  .strict();

/** A pet's status as pets stores it, for the store to compare with the one it derives. */
export const PetStatusEntrySchema = z.object({
  petId: IdSchema,
  status: PetStatusSchema,
});
export type PetStatusEntry = z.infer<typeof PetStatusEntrySchema>;

/** What the store asks of the pets service, with `x-internal-token`; the gateway never routes it. */
export const internalPets = c.router({
  getPet: {
    ...at('GET /internal/pets/:petId', metadata),
    pathParams: PetPathSchema,
    summary: 'Get a pet for another service',
    responses: {
      200: PetSchema,
      ...internalErrors('not_found'),
    },
  },
  setPetStatus: {
    ...at('PUT /internal/pets/:petId/status', metadata),
    pathParams: PetPathSchema,
    body: requestBody(PetStatusUpdateSchema),
    summary:
      'Set the status the store derives from stock, unless a newer one was set',
    responses: {
      200: PetSchema,
      ...internalErrors(...BODY, 'not_found'),
    },
  },
  listPetStatuses: {
    ...at('GET /internal/pet-statuses', metadata),
    query: PetStatusesQuerySchema,
    summary:
      'The statuses of up to 100 pets, those that exist, for the store to reconcile',
    responses: {
      200: z.array(PetStatusEntrySchema),
      ...internalErrors(),
    },
  },
});

/** What pets and the store send the gateway: the events that happened there, for webhooks. */
export const internalEvents = c.router({
  recordEvents: {
    ...at('POST /internal/events', { service: 'gateway', auth: 'internal' }),
    body: requestBody(
      z
        .object({ events: z.array(RecordedEventSchema).min(1).max(100) })
        .strict(),
    ),
    summary:
      'Record events for the webhooks that want them; recording one twice changes nothing',
    responses: {
      202: z.object({ recorded: z.number().int().min(0) }),
      ...internalErrors(...BODY),
    },
  },
});
