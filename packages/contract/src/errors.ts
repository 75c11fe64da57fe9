import { z } from 'zod';

export const ErrorCodeSchema = z.enum([
  'validation_failed',
  'invalid_json',
  'unsupported_content_type',
  'unauthorized',
  'forbidden',
  'not_found',
  'route_not_found',
  'method_not_allowed',
  'conflict',
  'insufficient_stock',
  'category_in_use',
  'order_complete',
  'gone',
  'payload_too_large',
  'unknown_category',
  'unknown_pet',
  'idempotency_key_reused',
  'rate_limited',
  'internal_error',
  'bad_gateway',
  'service_unavailable',
  'upstream_timeout',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The HTTP status of every error code; a code without a status does not compile. */
export const errorStatus: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_json: 400,
  unsupported_content_type: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  insufficient_stock: 409,
  category_in_use: 409,
  order_complete: 409,
  gone: 410,
  payload_too_large: 413,
  unknown_category: 422,
  unknown_pet: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  upstream_timeout: 504,
};

export const ErrorDetailSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

export const ErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  status: z.number().int(),
  requestId: z.string().optional(),
  details: z.array(ErrorDetailSchema).optional(),
});
export type ErrorBody = z.infer<typeof ErrorSchema>;
