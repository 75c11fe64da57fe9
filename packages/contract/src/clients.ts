import { initClient } from '@ts-rest/core';
import { contract, internalContract } from './contract.js';
import { fetchWithRepeatedQuery } from './repeated-query.js';

export interface PetstoreClientOptions {
  /** Where the gateway listens, without `/v1`: `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; leave out for the operations that need none. */
  apiKey?: string;
  /** Throw on a response its schema rejects; off, so a client survives a new field or code. */
  validateResponse?: boolean;
}

/** A typed client of the public API; an undeclared status throws `UnknownStatusError`. */
export function createPetstoreClient({
  baseUrl,
  apiKey,
  validateResponse = false,
}: PetstoreClientOptions) {
  const baseHeaders: Record<string, string> =
    apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };
  return initClient(contract, {
    baseUrl: withoutTrailingSlash(baseUrl),
    baseHeaders,
    api: fetchWithRepeatedQuery,
    throwOnUnknownStatus: true,
    validateResponse,
  });
}
export type PetstoreClient = ReturnType<typeof createPetstoreClient>;

export interface InternalClientOptions {
  /** Where the service listens: `http://127.0.0.1:3001`. */
  baseUrl: string;
  /** The shared secret services present to each other as `x-internal-token`. */
  internalToken: string;
  /** The id of the request being served, passed on as `x-request-id` so logs line up. */
  requestId?: string;
  /** More headers to send with every call, e.g. the trace context (`traceparent`). */
  headers?: Record<string, string>;
}

/** A typed client of the service-to-service routes, checking every response. */
export function createInternalClient({
  baseUrl,
  internalToken,
  requestId,
  headers = {},
}: InternalClientOptions) {
  const baseHeaders: Record<string, string> = { ...headers, 'x-internal-token': internalToken };
  if (requestId !== undefined) {
    baseHeaders['x-request-id'] = requestId;
  }
  return initClient(internalContract, {
    baseUrl: withoutTrailingSlash(baseUrl),
    baseHeaders,
    api: fetchWithRepeatedQuery,
    throwOnUnknownStatus: true,
    validateResponse: true,
  });
}
export type InternalClient = ReturnType<typeof createInternalClient>;

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
