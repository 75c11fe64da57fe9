import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { type AppRoute, isZodType } from '@ts-rest/core';
import { z } from 'zod';
import { objectShape } from '../zod-unwrap.js';

type Request = NonNullable<RouteConfig['request']>;

/** What `requestBody()` refuses beyond the schema, in words: OpenAPI 3.0 has no `propertyNames`. */
export const BODY_KEYS_RULE =
  'A property the schema does not list is refused with 400 `validation_failed` naming it, at any ' +
  'depth. So is a key that starts with `$` or contains `.` anywhere in the body, nested objects ' +
  'and arrays included, and a string that is not well-formed Unicode (a lone surrogate).';

export function operationRequest(route: AppRoute): Request {
  const body = routeBody(route);
  const contentType = 'contentType' in route ? route.contentType : undefined;
  return {
    params: parameters(route.pathParams),
    query: parameters(route.query),
    headers: declaredHeaders(route.headers),
    body: isZodType(body)
      ? {
          description: BODY_KEYS_RULE,
          required: !body.isOptional(),
          content: { [contentType ?? 'application/json']: { schema: body } },
        }
      : undefined,
  };
}

/** The request body schema of a route, when it declares one (`c.noBody()` is not a schema). */
export function routeBody(route: AppRoute): unknown {
  return 'body' in route ? route.body : undefined;
}

/** Path or query parameters as the generator takes them: an object schema, when one is declared. */
function parameters(schema: unknown): Request['params'] {
  return isZodType(schema) ? (schema as Request['params']) : undefined;
}

/** The declared headers under the names readers know them by (`Idempotency-Key`). */
function declaredHeaders(headers: unknown): z.AnyZodObject | undefined {
  const shape = objectShape(headers);
  if (shape === undefined || Object.keys(shape).length === 0) {
    return undefined;
  }
  return z.object(
    Object.fromEntries(
      Object.entries(shape).map(([name, schema]) => [headerName(name), schema]),
    ),
  );
}

/** `idempotency-key` → `Idempotency-Key`: how a declared header is shown to readers. */
export function headerName(name: string): string {
  return name.replace(
    /(^|-)([a-z])/g,
    (_match, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}
