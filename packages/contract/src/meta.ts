import { z } from './zod.js';
import { initContract } from '@ts-rest/core';
import { errors } from './errors.js';
import { at, type RouteMetadata } from './contract-operations.js';

export const HealthSchema = z
  .object({ status: z.literal('ok').openapi({ example: 'ok' }) })
  .openapi('Health');

/** The OpenAPI document; passthrough, so checking it never drops a part of it. */
export const OpenApiDocumentSchema = z
  .object({
    openapi: z.string().openapi({ example: '3.0.3' }),
    info: z
      .object({
        title: z.string().openapi({ example: 'Petstore API' }),
        version: z.string().openapi({ example: '1.0.0' }),
      })
      .passthrough(),
    paths: z.record(z.string(), z.object({}).passthrough()),
  })
  .passthrough()
  .openapi('OpenApiDocument', {
    description: 'The OpenAPI 3.0.3 document of this API.',
  });

const c = initContract();

const metadata = { service: 'gateway', auth: 'none' } satisfies RouteMetadata;

export const meta = c.router({
  health: {
    ...at('GET /health', metadata),
    summary: 'Liveness',
    description: 'Answers while the gateway process is up.',
    responses: { 200: HealthSchema, ...errors('internal_error') },
  },
  ready: {
    ...at('GET /ready', metadata),
    summary: 'Readiness',
    description:
      'Answers 200 when every service and database answers, else 503 naming the parts that are down.',
    responses: {
      200: HealthSchema,
      ...errors('internal_error', 'service_unavailable'),
    },
  },
  openapi: {
    ...at('GET /openapi.json', metadata),
    summary: 'This document',
    description: 'The OpenAPI 3.0.3 document of the API.',
    responses: { 200: OpenApiDocumentSchema, ...errors('internal_error') },
  },
  docs: {
    ...at('GET /docs', metadata),
    summary: 'API reference',
    description:
      'An interactive reference page built from this document, served without a CDN.',
    responses: {
      200: c.otherResponse({ contentType: 'text/html', body: z.string() }),
      ...errors('internal_error'),
    },
  },
});
