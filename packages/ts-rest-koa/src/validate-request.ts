import type { IncomingHttpHeaders } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import { checkZodSchema, isAppRouteMutation, type AppRoute } from '@ts-rest/core';
import { coerceQuery } from './coerce-query.js';
import { lowercaseKeys, pickDeclaredHeaders } from './declared-headers.js';
import { RequestValidationError, type ValidationIssue } from './errors.js';
import { toValidationIssues } from './zod-issues.js';

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

/**
 * Parses every request part with the route's schemas and returns the parsed values (coerced,
 * unknown object keys stripped). Throws one RequestValidationError listing the issues of all parts.
 */
export function validateRequest(route: AppRoute, raw: RawRequest): ValidatedRequest {
  const issues: ValidationIssue[] = [];
  const check = (part: string, data: unknown, schema: unknown, keepExtraKeys = false): unknown => {
    const result = checkZodSchema(data, schema, { passThroughExtraKeys: keepExtraKeys });
    if (result.success) {
      return result.data;
    }
    issues.push(...toValidationIssues(part, result.error));
    return undefined;
  };

  const validated: ValidatedRequest = {
    // Path parameters the schema does not name stay, as ts-rest types them from the path itself.
    params: check('params', raw.params, route.pathParams, true),
    query: check('query', coerceQuery(raw.query, route.query), route.query),
    headers: {
      ...raw.headers,
      ...lowercaseKeys(
        check('headers', pickDeclaredHeaders(raw.headers, route.headers), route.headers),
      ),
    },
    body: isAppRouteMutation(route) ? check('body', raw.body, route.body) : undefined,
  };
  if (issues.length > 0) {
    throw new RequestValidationError(issues);
  }
  return validated;
}
