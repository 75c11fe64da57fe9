import { initContract } from '@ts-rest/core';
import { v1Errors } from './error-responses.js';
import { IdParamSchema } from './ids.js';
import {
  InventoryItemSchema,
  InventoryUpdateSchema,
  ListInventoryQuerySchema,
} from './inventory-schemas.js';
import type { RouteMetadata } from './metadata.js';
import {
  IdempotencyKeySchema,
  ListOrdersQuerySchema,
  NewOrderSchema,
  OrderSchema,
  OrderUpdateSchema,
} from './order-schemas.js';
import { requestBody } from './request-body.js';
import { z } from './zod.js';

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
    method: 'GET',
    path: '/v1/store/orders',
    query: ListOrdersQuerySchema,
    summary: 'List orders',
    description:
      'The caller’s orders (an admin sees every order), in id order. The next page is in the `Link: <…>; rel="next"` header.',
    responses: { 200: z.array(OrderSchema), ...v1Errors(400, 401) },
    metadata: { ...customer, hideTryItPanel: true },
  },
  placeOrder: {
    method: 'POST',
    path: '/v1/store/orders',
    headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }),
    body: requestBody(NewOrderSchema),
    summary: 'Place an order',
    description:
      'Takes the quantity from stock at once: more than the stock holds is 409 `insufficient_stock`, a pet that does not exist 422 `unknown_pet`. With `Idempotency-Key`, a retry with the same body returns the first order again; another body with the same key is 422 `idempotency_key_reused`.',
    responses: { 201: OrderSchema, ...v1Errors(400, 401, 409, 413, 415, 422) },
    metadata: customer,
  },
  getOrder: {
    method: 'GET',
    path: '/v1/store/orders/:orderId',
    pathParams: OrderPathSchema,
    summary: 'Get an order',
    description: 'One of the caller’s orders (an admin: any order); another account’s is 404.',
    responses: { 200: OrderSchema, ...v1Errors(400, 401, 404) },
    metadata: customer,
  },
  updateOrder: {
    method: 'PATCH',
    path: '/v1/store/orders/:orderId',
    pathParams: OrderPathSchema,
    body: requestBody(OrderUpdateSchema),
    summary: 'Update an order',
    description:
      'Completes an order or moves its ship date. The ship date of a complete order no longer moves: 409 `order_complete`.',
    responses: { 200: OrderSchema, ...v1Errors(400, 401, 403, 404, 409, 413, 415) },
    metadata: admin,
  },
  cancelOrder: {
    method: 'DELETE',
    path: '/v1/store/orders/:orderId',
    pathParams: OrderPathSchema,
    summary: 'Cancel an order',
    description:
      'Cancels an open order and puts its quantity back in stock; a complete order is 409 `order_complete`. Idempotent: an order already cancelled answers 204 again.',
    responses: { 204: c.noBody(), ...v1Errors(400, 401, 404, 409) },
    metadata: customer,
  },
});

export const inventory = c.router({
  listInventory: {
    method: 'GET',
    path: '/v1/store/inventory',
    query: ListInventoryQuerySchema,
    summary: 'List the inventory',
    description:
      'The stock of every pet that has one, in pet id order. The next page is in the `Link: <…>; rel="next"` header.',
    responses: { 200: z.array(InventoryItemSchema), ...v1Errors(400, 401) },
    metadata: customer,
  },
  getInventoryItem: {
    method: 'GET',
    path: '/v1/store/inventory/:petId',
    pathParams: InventoryPathSchema,
    summary: 'Get the stock of a pet',
    description: 'The stock of one pet; a pet without stock yet is 404.',
    responses: { 200: InventoryItemSchema, ...v1Errors(400, 401, 404) },
    metadata: customer,
  },
  setInventory: {
    method: 'PUT',
    path: '/v1/store/inventory/:petId',
    pathParams: InventoryPathSchema,
    body: requestBody(InventoryUpdateSchema),
    summary: 'Set the stock of a pet',
    description:
      'Creates or replaces the stock count of a pet, which sets the pet’s status. A pet that does not exist is 422 `unknown_pet`.',
    responses: { 200: InventoryItemSchema, ...v1Errors(400, 401, 403, 413, 415, 422) },
    metadata: admin,
  },
});
