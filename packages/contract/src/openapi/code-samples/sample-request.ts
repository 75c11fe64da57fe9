import { createHash } from 'node:crypto';
import { isZodType, type AppRoute } from '@ts-rest/core';
import type { ContractOperation } from '../../contract-operations.js';
import { headerName, routeBody } from '../operation-request.js';
import { successContent } from '../responses.js';
import { objectShape } from '../../zod-unwrap.js';
import { toQueryString } from '../../clients.js';
import { exampleFields, exampleValue } from './example-value.js';
import { IdSchema } from '../../ids.js';

/** One concrete, valid call of an operation: what every code sample renders. */
export interface SampleRequest {
  method: AppRoute['method'];
  url: string;
  /** Whether the call sends `Authorization: Bearer <API key>`. */
  auth: boolean;
  /** Declared headers with their example values, by display name. */
  headers: [string, string][];
  body?: unknown;
  response: 'json' | 'text' | 'none';
}

export function sampleRequest(
  operation: ContractOperation,
  serverUrl: string,
): SampleRequest {
  const { route, metadata } = operation;
  const body = routeBody(route);
  const success = successContent(route);
  const pathParams = objectShape(route.pathParams) ?? {};
  // Every path parameter of the contract declares an example; one it does not name is an id.
  const path = route.path.replace(
    /:([A-Za-z_][A-Za-z0-9_]*)/g,
    (_match, name: string) =>
      encodeURIComponent(String(exampleValue(pathParams[name] ?? IdSchema))),
  );
  const query = exampleFields(objectShape(route.query) ?? {});
  return {
    method: route.method,
    url:
      serverUrl.replace(/\/+$/, '') +
      path +
      toQueryString(Object.fromEntries(query)),
    auth: metadata.auth === 'key',
    headers: exampleFields(objectShape(route.headers) ?? {}).map(
      ([name, value]) => [
        headerName(name),
        name === 'idempotency-key'
          ? sampleIdempotencyKey(operation.name)
          : String(value),
      ],
    ),
    body: isZodType(body) ? exampleValue(body) : undefined,
    response: responseKind(success?.contentType),
  };
}

/**
 * A key of the operation's own, the same in every run of its sample: a key is bound to one
 * operation, so samples run one after another must not share one.
 */
function sampleIdempotencyKey(operationId: string): string {
  const hex = createHash('sha256').update(operationId).digest('hex');
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5');
}

function responseKind(
  contentType: string | undefined,
): SampleRequest['response'] {
  if (contentType === undefined) return 'none';
  return contentType.includes('json') ? 'json' : 'text';
}
