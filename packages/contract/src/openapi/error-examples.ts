import type { ExamplesObject } from 'openapi3-ts/oas30';
import { type ErrorBody, type ErrorCode, errorStatus } from '../errors.js';

/** A message of each code as the API writes it; exhaustive, so a new code needs one. */
const messages: Record<ErrorCode, string> = {
  validation_failed: 'query.colour: unknown parameter',
  invalid_json: 'request body is not valid JSON',
  unsupported_content_type:
    'a request body must be sent with Content-Type: application/json',
  malformed_request: 'an HTTP/1.1 request must carry a Host header',
  unauthorized: 'a valid API key is needed: Authorization: Bearer <API key>',
  forbidden: 'this operation needs the admin role',
  not_found: 'no such resource: 27 was never issued, or was deleted',
  route_not_found: 'no operation for GET /v1/pet',
  method_not_allowed: 'PATCH is not allowed here; allowed: GET, PUT, DELETE',
  conflict:
    'this conflicts with what exists: a name or email in use, or a limit reached',
  insufficient_stock: 'pet 1 has fewer than 2 in stock',
  category_in_use:
    'category 1 is used by pets; delete them or move them to another category first',
  order_complete: 'order 1 is complete',
  request_timeout: 'the request did not arrive in time',
  gone: 'this operation was retired; list pets with GET /v1/pets instead',
  payload_too_large: 'request body is larger than 65536 bytes',
  unsupported_content_encoding:
    'a request body must not be encoded (Content-Encoding: gzip); send it as plain JSON',
  unknown_category: 'category 7 does not exist',
  unknown_pet: 'pet 7 does not exist',
  idempotency_key_reused:
    'this Idempotency-Key was used with another request body',
  invalid_webhook_url: 'the webhook URL’s host resolves to a private address',
  rate_limited: 'too many requests; retry in 1 s',
  headers_too_large: 'a request may carry at most 100 headers',
  internal_error: 'internal server error',
  bad_gateway: 'the service behind the gateway sent a broken answer',
  service_unavailable: 'a service or its database is unavailable',
  upstream_timeout:
    'the service behind the gateway did not answer within 5000 ms',
};

/** One example per code of an error response, keyed by the code, so readers can pick each. */
export function errorExamples(codes: ErrorCode[]): ExamplesObject {
  return Object.fromEntries(
    codes.map((code) => {
      const value: ErrorBody = {
        code,
        message: messages[code],
        status: errorStatus[code],
        ...(code === 'validation_failed'
          ? {
              details: [{ path: 'query.colour', message: 'unknown parameter' }],
            }
          : {}),
      };
      return [code, { summary: code, value }];
    }),
  );
}
