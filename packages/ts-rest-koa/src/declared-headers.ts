import type { IncomingHttpHeaders } from 'node:http';
import { objectShape } from '@petstore/contract';

/**
 * Only the headers an object schema names, read lower-cased as Node delivers them, so headers the
 * contract does not mention never fail validation. Any other schema sees every header.
 */
export function pickDeclaredHeaders(
  headers: IncomingHttpHeaders,
  schema: unknown,
): Record<string, unknown> {
  const shape = objectShape(schema);
  if (shape === undefined) {
    return { ...headers };
  }
  return Object.fromEntries(Object.keys(shape).map((name) => [name, headers[name.toLowerCase()]]));
}

export function lowercaseKeys(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    return {};
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toLowerCase(), item]));
}
