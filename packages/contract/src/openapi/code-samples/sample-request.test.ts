import { isZodType } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from '../../zod.js';
import { contract } from '../../contract.js';
import { documentedOperations } from '../generate-openapi.js';
import { routeBody } from '../operation-request.js';
import { objectShape, unwrapSchema } from '../../zod-unwrap.js';
import { sampleRequest } from './sample-request.js';

const serverUrl = 'http://127.0.0.1:8080';

describe('sampleRequest', () => {
  it.each(
    documentedOperations(contract).map((operation) => [
      operation.name,
      operation,
    ]),
  )(
    'builds a %s call that passes the route’s own validation',
    (_name, operation) => {
      const { route } = operation;
      const request = sampleRequest(operation, serverUrl);
      const url = new URL(request.url);
      const body = routeBody(route);

      expect(request.method).toBe(route.method);
      if (isZodType(route.pathParams)) {
        expect(
          route.pathParams.safeParse(pathParams(route.path, url.pathname))
            .error,
        ).toBeUndefined();
      }
      if (isZodType(route.query)) {
        expect(
          route.query.safeParse(queryObject(route.query, url)).error,
        ).toBeUndefined();
      }
      if (isZodType(route.headers)) {
        const headers = Object.fromEntries(
          request.headers.map(([name, value]) => [name.toLowerCase(), value]),
        );
        expect(route.headers.safeParse(headers).error).toBeUndefined();
      }
      if (isZodType(body)) {
        expect(body.safeParse(request.body).error).toBeUndefined();
      }
    },
  );
});

function pathParams(
  template: string,
  pathname: string,
): Record<string, string> {
  const names = template.split('/');
  const values = pathname.split('/');
  return Object.fromEntries(
    names.flatMap((name, index) =>
      name.startsWith(':')
        ? [[name.slice(1), decodeURIComponent(values[index] ?? '')]]
        : [],
    ),
  );
}

/** The query as the services read it: repeated parameters become arrays where the schema has one. */
function queryObject(schema: z.ZodTypeAny, url: URL): Record<string, unknown> {
  const shape = objectShape(schema) ?? {};
  return Object.fromEntries(
    [...new Set(url.searchParams.keys())].map((name) => {
      const field = shape[name];
      const isArray =
        field !== undefined && unwrapSchema(field) instanceof z.ZodArray;
      return [
        name,
        isArray ? url.searchParams.getAll(name) : url.searchParams.get(name),
      ];
    }),
  );
}
