import type { ParsedUrlQuery } from 'node:querystring';
import { objectShape, unwrapSchema } from '@petstore/contract';
import { z } from 'zod';

/**
 * Koa parses `?status=a` as a string and `?status=a&status=b` as an array; for fields the
 * schema declares as arrays, a single value is wrapped so both spellings validate.
 */
export function coerceQuery(query: ParsedUrlQuery, schema: unknown): ParsedUrlQuery {
  const shape = objectShape(schema);
  if (shape === undefined) {
    return query;
  }
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => {
      const field = shape[key];
      const wrap =
        typeof value === 'string' &&
        field !== undefined &&
        unwrapSchema(field) instanceof z.ZodArray;
      return [key, wrap ? [value] : value];
    }),
  );
}
