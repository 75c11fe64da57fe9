import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import {
  type ContractOperation,
  operationIdOf,
} from '../contract-operations.js';
import {
  type AppRoute,
  type AppRouteResponse,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  isZodType,
} from '@ts-rest/core';
import { z, type ZodTypeAny } from 'zod';
import { STATUS_CODES } from 'node:http';
import type {
  HeaderObject,
  HeadersObject,
  LinksObject,
} from 'openapi3-ts/oas30';
import { documentInfo } from './document-info.js';
import { unwrapSchema } from '../zod-unwrap.js';
import { responseCodes } from '../errors.js';
import { errorExamples } from './error-examples.js';
import {
  deprecationHeaders as exampleHeaders,
  getPetDeprecatedAt,
  getPetDocumentation,
} from '../deprecation.js';

/** Every status the contract lists for a route, with its content (an error: an example per code), headers and links. */
export function operationResponses(
  operation: ContractOperation,
  operations: ContractOperation[],
): RouteConfig['responses'] {
  return Object.fromEntries(
    // Integer keys come in ascending order: the statuses, sorted.
    Object.entries(operation.route.responses).map(([key, response]) => {
      const status = Number(key);
      const content = responseContent(response);
      const codes = responseCodes(content?.schema);
      // 202: a message is accepted, not yet delivered, but it can be read by its id at once.
      const links =
        operation.route.method === 'POST' && (status === 201 || status === 202)
          ? createdLinks(operation, operations)
          : {};
      return [
        String(status),
        {
          description: reasons[status] ?? `HTTP ${status}`,
          headers: responseHeaders(operation, status, content),
          content: content && {
            [content.contentType]: {
              schema: content.schema ?? {},
              examples: codes.length === 0 ? undefined : errorExamples(codes),
            },
          },
          links: Object.keys(links).length === 0 ? undefined : links,
        },
      ];
    }),
  );
}

/** Links from what a `POST` creates to the operations on it (`<path>/:id`), by its body's `id`. */
function createdLinks(
  { route }: ContractOperation,
  operations: ContractOperation[],
): LinksObject {
  return Object.fromEntries(
    operations.flatMap((child) => {
      const parameter = /^\/:([A-Za-z]+)$/.exec(
        child.route.path.slice(route.path.length),
      )?.[1];
      if (
        child.route.method === 'POST' ||
        !child.route.path.startsWith(route.path) ||
        !parameter
      ) {
        return [];
      }
      const link = {
        operationId: operationIdOf(child),
        parameters: { [parameter]: '$response.body#/id' },
        description: `The \`id\` of the new resource as \`${parameter}\`.`,
      };
      return [[child.name, link]];
    }),
  );
}

interface ResponseContent {
  contentType: string;
  schema?: ZodTypeAny;
}

/** Undefined for `c.noBody()` and bodiless responses. */
function responseContent(
  response: AppRouteResponse,
): ResponseContent | undefined {
  if (isAppRouteNoBody(response) || response === null) {
    return undefined;
  }
  const other = isAppRouteOtherResponse(response);
  const schema: unknown = other ? response.body : response;
  return {
    contentType: other ? response.contentType : 'application/json',
    schema: isZodType(schema) ? schema : undefined,
  };
}

/** The first success response of a route: what a caller normally gets back. */
export function successContent(route: AppRoute): ResponseContent | undefined {
  const success = Object.entries(route.responses).find(([status]) =>
    isSuccess(Number(status)),
  );
  return success && responseContent(success[1]);
}

/** Response descriptions: reason phrases as RFC 9110 names them, where Node's are older. */
const reasons: Record<number, string | undefined> = {
  ...STATUS_CODES,
  413: 'Content Too Large',
  422: 'Unprocessable Content',
};

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
  'API-Version': text(
    'The version of the API that answered.',
    documentInfo.version,
  ),
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

const rateLimitHeaders = Object.keys(headerComponents).filter((name) =>
  /^(RateLimit-|Retry-After)/.test(name),
);
const ref = (name: keyof typeof headerComponents) => ({
  $ref: `#/components/headers/${name}`,
});

/** The headers worth documenting on one response of an operation, derived from its shape. */
export function responseHeaders(
  operation: ContractOperation,
  status: number,
  content: ResponseContent | undefined,
): HeadersObject {
  const { route, metadata } = operation;
  const isList =
    content?.schema !== undefined &&
    unwrapSchema(content.schema) instanceof z.ZodArray;
  return {
    'API-Version': ref('API-Version'),
    'X-Request-Id': ref('X-Request-Id'),
    ...(status === 201 ? { Location: ref('Location') } : {}),
    ...(isSuccess(status) && route.method === 'GET' && isList
      ? { Link: ref('Link') }
      : {}),
    ...(status === 401 ? { 'WWW-Authenticate': ref('WWW-Authenticate') } : {}),
    ...(status === 429
      ? Object.fromEntries(rateLimitHeaders.map((name) => [name, ref(name)]))
      : {}),
    ...(route.deprecated ? deprecationHeaders(metadata.sunset!) : {}),
  };
}

/** The headers of a deprecated operation, their examples as the gateway sends them. */
function deprecationHeaders(sunset: string): HeadersObject {
  const example = exampleHeaders(
    {
      deprecatedAt: new Date(getPetDeprecatedAt),
      sunsetAt: new Date(sunset),
      documentation: getPetDocumentation,
    },
    '/v2/pets/1',
  );
  return {
    Deprecation: text(
      'When the operation was deprecated (RFC 9745).',
      example.Deprecation!,
    ),
    Sunset: text(
      'When the operation stops working (RFC 8594); after it, 410 `gone`.',
      example.Sunset!,
    ),
    Link: text(
      'Where the deprecation is documented, and the successor: the same request in the current version.',
      example.Link!,
    ),
  };
}
