import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import { IdParamSchema, IdSchema } from './ids.js';
import { PageQuerySchema } from './pagination.js';
import { QuantitySchema } from './quantity.js';
import { TimestampInputSchema, TimestampSchema } from './timestamps.js';
import { lengthInCodePoints } from './text.js';
import { z } from './zod.js';

const SHIP_DATE_EXAMPLE = '2026-12-01T10:00:00Z';

/** The document shows `complete` as the boolean it stands for, example included. */
const completeParameter: ZodOpenAPIMetadata = {
  type: 'boolean',
  description: 'Only complete or only open orders.',
  example: false,
};

/** The seed's Order: every field is present in responses, none is required by the schema. */
export const OrderSchema = z
  .object({
    id: IdSchema.optional().openapi({ example: 1 }),
    petId: IdSchema.optional().openapi({ example: 1 }),
    quantity: QuantitySchema.min(1).optional().openapi({ example: 1 }),
    shipDate: TimestampSchema.optional().openapi({
      description: 'When the order ships; the time it was placed unless the order gave one.',
      example: SHIP_DATE_EXAMPLE,
    }),
    complete: z.boolean().optional().openapi({ example: false }),
  })
  .openapi('Order');
export type Order = z.infer<typeof OrderSchema>;

export const NewOrderSchema = z
  .object({
    petId: IdSchema.openapi({ description: 'An existing pet.', example: 1 }),
    quantity: QuantitySchema.min(1).openapi({
      description: 'Taken from the stock at once; more than it holds is 409.',
      example: 1,
    }),
    shipDate: TimestampInputSchema.optional().openapi({ example: SHIP_DATE_EXAMPLE }),
  })
  .openapi('NewOrder');
export type NewOrder = z.infer<typeof NewOrderSchema>;

export const OrderUpdateSchema = z
  .object({
    complete: z.literal(true).optional().openapi({
      description: 'Completes the order; a complete order is never reopened.',
      example: true,
    }),
    shipDate: TimestampInputSchema.optional().openapi({ example: SHIP_DATE_EXAMPLE }),
  })
  .openapi('OrderUpdate');
export type OrderUpdate = z.infer<typeof OrderUpdateSchema>;

export const ListOrdersQuerySchema = PageQuerySchema.extend({
  petId: IdParamSchema.optional().openapi({ description: 'Only orders for this pet.' }),
  complete: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .openapi(completeParameter),
});
export type ListOrdersQuery = z.infer<typeof ListOrdersQuerySchema>;

export const IdempotencyKeySchema = lengthInCodePoints(z.string(), { min: 1, max: 255 }).openapi({
  description:
    'Retrying with the same key and body returns the first answer again; keys are kept at least 24 hours.',
  example: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
});
