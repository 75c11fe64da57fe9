import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ContractOperation } from '../contract-operations.js';
import {
  type AppRoute,
  type AppRouteResponse,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  isZodType,
} from '@ts-rest/core';
import { z, type ZodTypeAny } from 'zod';
import type { HeaderObject, HeadersObject } from 'openapi3-ts/oas30';
import { documentInfo } from './document-info.js';
import { unwrapSchema } from '../zod-unwrap.js';

/** Every status the contract lists for a route, with its content and headers. */
export function operationResponses(operation: ContractOperation): RouteConfig['responses'] {
  return Object.fromEntries(
    routeResponses(operation.route).map(([status, response]) => {
      const content = responseContent(response);
      return [
        String(status),
        {
          description: reasonPhrase(status),
          headers: responseHeaders(operation, status, content),
          ...(content === undefined
            ? {}
            : { content: { [content.contentType]: { schema: content.schema ?? {} } } }),
        },
      ];
    }),
  );
}

/** What a response carries: a content type and, when the contract gives one, its schema. */
export interface ResponseContent {
  contentType: string;
  schema?: ZodTypeAny;
}

/** The content of a contract response; undefined for `c.noBody()` and bodiless responses. */
export function responseContent(response: AppRouteResponse): ResponseContent | undefined {
  if (isAppRouteNoBody(response) || response === null) {
    return undefined;
  }
  if (isAppRouteOtherResponse(response)) {
    return {
      contentType: response.contentType,
      ...(isZodType(response.body) ? { schema: response.body } : {}),
    };
  }
  return { contentType: 'application/json', ...(isZodType(response) ? { schema: response } : {}) };
}

/** The contract's responses as [status, response] pairs, in status order. */
export function routeResponses(route: AppRoute): [number, AppRouteResponse][] {
  return Object.entries(route.responses)
    .map(([status, response]): [number, AppRouteResponse] => [Number(status), response])
    .sort(([a], [b]) => a - b);
}

/** The first success response of a route: what a caller normally gets back. */
export function successContent(route: AppRoute): ResponseContent | undefined {
  const success = routeResponses(route).find(([status]) => isSuccess(status));
  return success === undefined ? undefined : responseContent(success[1]);
}

const reasons: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase of a status, used as its response description. */
export function reasonPhrase(status: number): string {
  return reasons[status] ?? `HTTP ${status}`;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

const text = (description: string, example: string): HeaderObject => ({
  description,
  schema: { type: 'string', example },
});
const integer = (description: string, example: number): HeaderObject => ({
  description,
  schema: { type: 'integer', minimum: 0, example },
});

/** Headers the gateway sends on many responses, documented once under `components.headers`. */
export const headerComponents: Record<string, HeaderObject> = {
  'API-Version': text('The version of the API that answered.', documentInfo.version),
  'X-Request-Id': text(
    'The id of the request (the client’s own, when it sent a sane one); error bodies and logs carry it too.',
    '0f8c5d5e-3b8e-4b7a-9d43-5f1f0e6f2a11',
  ),
  Location: {
    description: 'The address of the resource just created.',
    schema: { type: 'string', format: 'uri-reference' },
  },
  Link: text(
    'The next page, absent on the last one. Cursors are opaque.',
    '</v1/pets?limit=20&cursor=eyJpZCI6MjB9>; rel="next"',
  ),
  'WWW-Authenticate': text('How to authenticate.', 'Bearer realm="petstore"'),
  'RateLimit-Limit': integer(
    'Requests allowed per window (per API key; per client address without one).',
    100,
  ),
  'RateLimit-Remaining': integer('Requests left in the current window.', 0),
  'RateLimit-Reset': integer('Seconds until the window resets.', 1),
  'Retry-After': integer('Seconds to wait before trying again.', 1),
};

const ref = (name: keyof typeof headerComponents) => ({ $ref: `#/components/headers/${name}` });

/** The headers worth documenting on one response of an operation, derived from its shape. */
export function responseHeaders(
  operation: ContractOperation,
  status: number,
  content: ResponseContent | undefined,
): HeadersObject {
  const { route, metadata } = operation;
  return {
    'API-Version': ref('API-Version'),
    'X-Request-Id': ref('X-Request-Id'),
    ...(status === 201 ? { Location: ref('Location') } : {}),
    ...(isSuccess(status) && route.method === 'GET' && isList(content)
      ? { Link: ref('Link') }
      : {}),
    ...(status === 401 ? { 'WWW-Authenticate': ref('WWW-Authenticate') } : {}),
    ...(status === 429
      ? {
          'RateLimit-Limit': ref('RateLimit-Limit'),
          'RateLimit-Remaining': ref('RateLimit-Remaining'),
          'RateLimit-Reset': ref('RateLimit-Reset'),
          'Retry-After': ref('Retry-After'),
        }
      : {}),
    ...(route.deprecated ? deprecationHeaders(metadata.sunset) : {}),
  };
}

function isList(content: ResponseContent | undefined): boolean {
  return content?.schema !== undefined && unwrapSchema(content.schema) instanceof z.ZodArray;
}

function deprecationHeaders(sunset: string | undefined): HeadersObject {
  return {
    Deprecation: text('When the operation was deprecated (RFC 9745).', '@1767225600'),
    ...(sunset === undefined
      ? {}
      : {
          Sunset: text(
            'When the operation stops working (RFC 8594); after it, 410 `gone`.',
            new Date(sunset).toUTCString(),
          ),
        }),
    Link: text(
      'Where the deprecation is documented.',
      '</docs>; rel="deprecation"; type="text/html"',
    ),
  };
}
