import {
  type ApiFetcher,
  type InitClientReturn,
  initClient,
  tsRestFetchApi,
} from '@ts-rest/core';
import { contract, internalContract } from './contract.js';

/** Arrays as repeated parameters (`status=a&status=b`), not ts-rest's `status[0]=a`. */
export function toQueryString(query: unknown): string {
  const pairs = Object.entries(query ?? {}).flatMap(([name, value]) =>
    (Array.isArray(value) ? (value as unknown[]) : [value])
      .filter((item) => item !== undefined)
      .map((item): [string, string] => [name, String(item)]),
  );
  const text = new URLSearchParams(pairs).toString();
  return text === '' ? '' : `?${text}`;
}

/** ts-rest's fetch, with the query of the URL written again by `toQueryString`. */
export const fetchWithRepeatedQuery: ApiFetcher = (args) =>
  tsRestFetchApi({
    ...args,
    path: args.path.replace(/\?.*$/s, '') + toQueryString(args.rawQuery),
  });

export interface PetstoreClientOptions {
  /** Where the gateway listens, without `/v2`: `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; leave out for the operations that need none. */
  apiKey?: string;
  /** Throw on a response its schema rejects; off, so a client survives a new field or code. */
  validateResponse?: boolean;
}

/** The operations a `PetstoreClient` calls: the current version's, and the meta endpoints. */
const currentApi = { ...contract.v2, meta: contract.meta };

/**
 * A typed client of the public API's current version (`/v2`) and its meta endpoints; an
 * undeclared status throws `UnknownStatusError`.
 */
export function createPetstoreClient({
  baseUrl,
  apiKey,
  validateResponse = false,
}: PetstoreClientOptions): PetstoreClient {
  const headers: Record<string, string> =
    apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };
  return initClient(currentApi, clientArgs(baseUrl, headers, validateResponse));
}
export type PetstoreClient = InitClientReturn<typeof currentApi, ClientArgs>;

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
}: InternalClientOptions): InternalClient {
  const baseHeaders: Record<string, string> = {
    ...headers,
    'x-internal-token': internalToken,
  };
  if (requestId !== undefined) baseHeaders['x-request-id'] = requestId;
  return initClient(internalContract, clientArgs(baseUrl, baseHeaders, true));
}
export type InternalClient = InitClientReturn<
  typeof internalContract,
  ClientArgs
>;

/**
 * The arguments both clients are made with: no trailing `/`, repeated query parameters, no unknown
 * status. Named rather than inferred: the inferred client type reaches the fetch types of
 * `@types/node` (undici's), which a declaration file cannot name.
 */
function clientArgs(
  baseUrl: string,
  baseHeaders: Record<string, string>,
  validateResponse: boolean,
) {
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    api: fetchWithRepeatedQuery,
    throwOnUnknownStatus: true,
    baseHeaders,
    validateResponse,
  } as const;
}
type ClientArgs = ReturnType<typeof clientArgs>;
