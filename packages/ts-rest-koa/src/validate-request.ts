import type { IncomingHttpHeaders } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import { objectShape, unwrapSchema } from '@petstore/contract';
import {
  checkZodSchema,
  isAppRouteMutation,
  isAppRouteNoBody,
  isZodType,
  type AppRoute,
} from '@ts-rest/core';
import { z } from 'zod';
import {
  RequestValidationError,
  toValidationIssues,
  type ValidationIssue,
} from './errors.js';

export interface RawRequest {
  params: Record<string, string>;
  query: ParsedUrlQuery;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ValidatedRequest {
  params: unknown;
  query: unknown;
  headers: Record<string, unknown>;
  body: unknown;
}

/** The query of a route that declares none: it takes no parameter. */
const NO_QUERY = z.object({}).strict();

/**
 * Parses every request part with the route's schemas and returns the parsed values (coerced).
 * A strict schema (the contract's query and body schemas are) makes an unknown parameter or
 * property an issue, a route without a query schema takes no parameter, and one whose body is
 * `c.noBody()` takes no body; headers the schema does not name always pass. Throws one RequestValidationError listing the issues of all parts.
 */
export function validateRequest(
  route: AppRoute,
  raw: RawRequest,
): ValidatedRequest {
  const issues: ValidationIssue[] = [];
  const check = (
    part: string,
    data: unknown,
    schema: unknown,
    keepExtraKeys = false,
  ): unknown => {
    const result = checkZodSchema(data, schema, {
      passThroughExtraKeys: keepExtraKeys,
    });
    if (result.success) return result.data;
    issues.push(...toValidationIssues(part, result.error));
    return undefined;
  };
  const validated: ValidatedRequest = {
    // Path parameters the schema does not name stay, as ts-rest types them from the path itself.
    params: check('params', raw.params, route.pathParams, true),
    query: isZodType(route.query)
      ? check('query', coerceQuery(raw.query, route.query), route.query)
      : check('query', raw.query, NO_QUERY),
    headers: {
      ...raw.headers,
      ...lowercaseKeys(
        check(
          'headers',
          declaredHeaders(raw.headers, route.headers),
          route.headers,
        ),
      ),
    },
    body: isAppRouteMutation(route)
      ? check('body', raw.body, route.body)
      : undefined,
  };
  if (
    isAppRouteMutation(route) &&
    isAppRouteNoBody(route.body) &&
    raw.body !== undefined
  ) {
    issues.push({ path: 'body', message: 'must be absent' });
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  return validated;
}

/**
 * Koa parses `?status=a` as a string and `?status=a&status=b` as an array; for fields the
 * schema declares as arrays, a single value is wrapped so both spellings validate.
 */
export function coerceQuery(
  query: ParsedUrlQuery,
  schema: unknown,
): ParsedUrlQuery {
  const shape = objectShape(schema);
  if (shape === undefined) return query;
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => {
      // `__proto__` or `constructor` in a query names no field, whatever the object inherits.
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      const wrap =
        typeof value === 'string' &&
        field !== undefined &&
        unwrapSchema(field) instanceof z.ZodArray;
      return [key, wrap ? [value] : value];
    }),
  );
}

/** Only the headers an object schema names, so headers the contract does not mention never fail. */
function declaredHeaders(
  headers: IncomingHttpHeaders,
  schema: unknown,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(objectShape(schema) ?? {}).map((name) => [
      name,
      headers[name.toLowerCase()],
    ]),
  );
}

function lowercaseKeys(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key.toLowerCase(), item]),
  );
}
