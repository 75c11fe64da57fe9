import { z } from './zod.js';

export const HealthSchema = z
  .object({ status: z.literal('ok').openapi({ example: 'ok' }) })
  .openapi('Health');
export type Health = z.infer<typeof HealthSchema>;

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
  .openapi({ description: 'The OpenAPI 3.0.3 document of this API.' });
