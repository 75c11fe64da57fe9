import type { ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import { z } from './zod.js';
import { IdParamSchema, IdSchema } from './ids.js';
import { PageQuerySchema } from './pagination.js';
import { TimestampInputSchema, TimestampSchema } from './timestamps.js';
import { PetStatusSchema } from './pets.js';
import { initContract } from '@ts-rest/core';
import { BODY_ERRORS, POST_ERRORS, v1Errors } from './errors.js';
import { at, post, type RouteMetadata } from './contract-operations.js';
import { requestBody } from './request-body.js';

/** A number of pets in stock or in an order: a whole number up to a million. */
export const QuantitySchema = z.number().int().min(0).max(1_000_000);

/** The seed's Order: every field is present in responses, none is required by the schema. */
export const OrderSchema = z
  .object({
    id: IdSchema.optional(),
    petId: IdSchema.optional(),
    quantity: QuantitySchema.min(1).optional().openapi({ example: 1 }),
    shipDate: TimestampSchema.optional().openapi({
      description:
        'When the order ships; the time it was placed unless the order gave one.',
      example: '2026-12-01T10:00:00Z',
    }),
    complete: z.boolean().optional().openapi({ example: false }),
  })
  .openapi('Order', {
    description: 'An order for a pet; every field is present in responses.',
  });
export type Order = z.infer<typeof OrderSchema>;

export const NewOrderSchema = z
  .object({
    petId: IdSchema.openapi({ description: 'An existing pet.' }),
    quantity: QuantitySchema.min(1).openapi({
      description: 'Taken from the stock at once; more than it has is 409.',
      example: 1,
    }),
    shipDate: TimestampInputSchema.optional(),
  })
  .strict()
  .openapi('NewOrder');
export type NewOrder = z.infer<typeof NewOrderSchema>;

export const OrderUpdateSchema = z
  .object({
    complete: z.literal(true).optional().openapi({
      description: 'Completes the order; a complete order is never reopened.',
      example: true,
    }),
    shipDate: TimestampInputSchema.optional(),
  })
  .strict()
  .openapi('OrderUpdate');
export type OrderUpdate = z.infer<typeof OrderUpdateSchema>;

/** The document shows `complete` as the boolean it stands for, example included. */
const completeParameter: ZodOpenAPIMetadata = {
  type: 'boolean',
  description: 'Only complete or only open orders.',
  example: false,
};

export const ListOrdersQuerySchema = PageQuerySchema.extend({
  petId: IdParamSchema.optional().openapi({
    description: 'Only orders for this pet.',
  }),
  complete: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .openapi(completeParameter),
});
export type ListOrdersQuery = z.infer<typeof ListOrdersQuerySchema>;

export const InventoryItemSchema = z
  .object({
    petId: IdSchema,
    // Not capped as an update is: cancelled orders give their quantity back to a full stock.
    quantity: z.number().int().min(0).openapi({
      description:
        'How many are in stock. Can exceed the 1000000 an update sets at most, once cancelled orders give their quantity back.',
      example: 12,
    }),
    status: PetStatusSchema,
  })
  .openapi('InventoryItem', {
    description: 'The stock of a pet and the status it gives the pet.',
  });
export type InventoryItem = z.infer<typeof InventoryItemSchema>;

export const InventoryUpdateSchema = z
  .object({
    quantity: QuantitySchema.openapi({
      description: 'The new stock count.',
      example: 12,
    }),
  })
  .strict()
  .openapi('InventoryUpdate');
export type InventoryUpdate = z.infer<typeof InventoryUpdateSchema>;

export const ListInventoryQuerySchema = PageQuerySchema.extend({
  status: z
    .array(PetStatusSchema)
    .min(1)
    .optional()
    .openapi({
      description: 'Only items in one of these statuses.',
      example: ['available'],
    }),
});
export type ListInventoryQuery = z.infer<typeof ListInventoryQuerySchema>;

const c = initContract();

const customer = { service: 'store', auth: 'key' } satisfies RouteMetadata;
const admin = { ...customer, role: 'admin' } satisfies RouteMetadata;

const OrderPathSchema = z.object({
  orderId: IdParamSchema.openapi({ description: 'The order’s id.' }),
});
const InventoryPathSchema = z.object({
  petId: IdParamSchema.openapi({ description: 'The id of the pet in stock.' }),
});

export const orders = c.router({
  listOrders: {
    ...at('GET /store/orders', { ...customer, hideTryItPanel: true }),
    query: ListOrdersQuerySchema,
    summary: 'List orders',
    description:
      'The caller’s orders (an admin sees every order), in id order.',
    responses: {
      200: z.array(OrderSchema),
      ...v1Errors(),
    },
  },
  placeOrder: {
    ...post('/store/orders', customer),
    body: requestBody(NewOrderSchema),
    summary: 'Place an order',
    description:
      'Takes the quantity from stock at once: more than the stock has is 409 `insufficient_stock`, a pet that does not exist 422 `unknown_pet`.',
    responses: {
      201: OrderSchema,
      ...v1Errors('insufficient_stock', 'unknown_pet', ...POST_ERRORS),
    },
  },
  getOrder: {
    ...at('GET /store/orders/:orderId', customer),
    pathParams: OrderPathSchema,
    summary: 'Get an order',
    description:
      'One of the caller’s orders (an admin: any order); another account’s is 404.',
    responses: {
      200: OrderSchema,
      ...v1Errors('not_found'),
    },
  },
  updateOrder: {
    ...at('PATCH /store/orders/:orderId', admin),
    pathParams: OrderPathSchema,
    body: requestBody(OrderUpdateSchema),
    summary: 'Update an order',
    description:
      'Completes an order or moves its ship date. The ship date of a complete order no longer moves: 409 `order_complete`.',
    responses: {
      200: OrderSchema,
      ...v1Errors(...BODY_ERRORS, 'forbidden', 'not_found', 'order_complete'),
    },
  },
  cancelOrder: {
    ...at('DELETE /store/orders/:orderId', customer),
    pathParams: OrderPathSchema,
    summary: 'Cancel an order',
    description:
      'Cancels an open order and puts its quantity back in stock; a complete order is 409 `order_complete`. Idempotent: an order already cancelled answers 204 again.',
    responses: {
      204: c.noBody(),
      ...v1Errors('not_found', 'order_complete'),
    },
  },
});

export const inventory = c.router({
  listInventory: {
    ...at('GET /store/inventory', customer),
    query: ListInventoryQuerySchema,
    summary: 'List the inventory',
    description: 'The stock of every pet that has one, in pet id order.',
    responses: {
      200: z.array(InventoryItemSchema),
      ...v1Errors(),
    },
  },
  getInventoryItem: {
    ...at('GET /store/inventory/:petId', customer),
    pathParams: InventoryPathSchema,
    summary: 'Get the stock of a pet',
    description: 'The stock of one pet; a pet without stock yet is 404.',
    responses: {
      200: InventoryItemSchema,
      ...v1Errors('not_found'),
    },
  },
  setInventory: {
    ...at('PUT /store/inventory/:petId', admin),
    pathParams: InventoryPathSchema,
    body: requestBody(InventoryUpdateSchema),
    summary: 'Set the stock of a pet',
    description:
      'Creates or replaces the stock count of a pet, which sets the pet’s status. A pet that does not exist is 422 `unknown_pet`.',
    responses: {
      200: InventoryItemSchema,
      ...v1Errors(...BODY_ERRORS, 'forbidden', 'unknown_pet'),
    },
  },
});
