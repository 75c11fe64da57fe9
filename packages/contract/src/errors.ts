import { objectShape } from './zod-unwrap.js';
import { z } from './zod.js';

/** What went wrong, one closed set of snake_case codes shared by every service, by HTTP status. */
export const errorStatus = {
  validation_failed: 400,
  invalid_json: 400,
  unsupported_content_type: 400,
  malformed_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  insufficient_stock: 409,
  category_in_use: 409,
  order_complete: 409,
  request_timeout: 408,
  gone: 410,
  payload_too_large: 413,
  unsupported_content_encoding: 415,
  unknown_category: 422,
  unknown_pet: 422,
  idempotency_key_reused: 422,
  invalid_webhook_url: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const ErrorCodeSchema = z
  .enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]])
  .openapi({ example: 'validation_failed' });

export const ErrorDetailSchema = z.object({
  path: z.string().openapi({
    description: 'Where: the request part, then the field.',
    example: 'body.quantity',
  }),
  message: z.string().openapi({ example: 'must be >= 1' }),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

/** The body of every error answer, from every path. */
export const ErrorSchema = z
  .object({
    code: ErrorCodeSchema,
    message: z.string().openapi({ example: 'body.quantity: must be >= 1' }),
    status: z
      .number()
      .int()
      .min(400)
      .max(599)
      .openapi({ description: 'The HTTP status of the answer.', example: 400 }),
    requestId: z.string().optional().openapi({
      description: 'The `X-Request-Id` of the request, for support.',
      example: '0f6c3d4e-9b2a-4e1f-8c7d-5a3b2c1d0e9f',
    }),
    details: z
      .array(ErrorDetailSchema)
      .optional()
      .openapi({
        description:
          'For `validation_failed`: every value that failed its schema.',
        example: [{ path: 'body.quantity', message: 'must be >= 1' }],
      }),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof ErrorSchema>;

/** `{ [status]: schema }`: each status of the codes, an Error whose `code` is one of that status. */
type ErrorResponses<TCode extends ErrorCode> = {
  [S in (typeof errorStatus)[TCode]]: ErrorOf<Extract<TCode, CodeOfStatus<S>>>;
};
type ErrorOf<C extends ErrorCode> = ReturnType<
  typeof ErrorSchema.extend<{ code: z.ZodEnum<[C, ...C[]]> }>
>;
type CodeOfStatus<S> = {
  [C in ErrorCode]: (typeof errorStatus)[C] extends S ? C : never;
}[ErrorCode];

/** What any /v1 operation can answer: a value its schemas reject, then on its way the rate limit, a failing, unreachable or slow service. */
export const EVERY_V1_ERROR = [
  'validation_failed',
  'rate_limited',
  'internal_error',
  'bad_gateway',
  'service_unavailable',
  'upstream_timeout',
] as const satisfies ErrorCode[];

/**
 * What reading a request body can fail with beyond its schema, on every operation that reads one (a
 * body that is not JSON, not sent as JSON, too large, encoded, or too slow to arrive).
 */
export const BODY_ERRORS = [
  'invalid_json',
  'unsupported_content_type',
  'request_timeout',
  'payload_too_large',
  'unsupported_content_encoding',
] as const satisfies ErrorCode[];

/** Those of every `POST`: a body, and an `Idempotency-Key` that may have been used with another. */
export const POST_ERRORS = [
  ...BODY_ERRORS,
  'idempotency_key_reused',
] as const satisfies ErrorCode[];

/**
 * The error responses of a route from the codes it answers: one response per status (from
 * `errorStatus`), whose Error lists exactly the codes of that status, so that the document and
 * the types say which errors an operation has.
 */
export function errors<const TCodes extends readonly ErrorCode[]>(
  ...codes: TCodes
): ErrorResponses<TCodes[number]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, [first, ...rest]]) => [
      status,
      ErrorSchema.extend({ code: z.enum([first!, ...rest]) }),
    ]),
  ) as unknown as ErrorResponses<TCodes[number]>;
}

/** The error responses of a /v1 operation that needs a key: its codes, `unauthorized` and every one's. */
export function v1Errors<const TCodes extends readonly ErrorCode[]>(
  ...codes: TCodes
) {
  return errors(...EVERY_V1_ERROR, 'unauthorized', ...codes);
}

/** The codes an error response of the contract lists (its `code` enum). */
export function responseCodes(schema: unknown): ErrorCode[] {
  const code = objectShape(schema)?.code;
  return code instanceof z.ZodEnum ? (code.options as ErrorCode[]) : [];
}
