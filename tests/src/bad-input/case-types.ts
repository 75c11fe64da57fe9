import { errorStatus, type ErrorCode } from '@petstore/contract';
import type { Fixtures } from './fixtures.js';

/** Whose key a request carries: the admin's (so roles never mask validation), a customer's, none. */
export type Caller = 'admin' | 'customer' | 'anonymous';

/** A body as sent: text, bytes (sent without a Content-Type), or built from the fixtures. */
export type BodySource =
  string | Uint8Array | ((fixtures: Fixtures) => string | Uint8Array);

export interface Expected {
  status: number;
  /** The Error code of an error answer; absent for a success. */
  code?: ErrorCode;
  /** Refused by Node's HTTP parser, before routing: the connection is closed after the answer. */
  closes?: boolean;
}

/** One request of the table and what it must get. */
export interface BadInputCase {
  name: string;
  /** The contract operation the request is meant for, or what it is about when it matches none. */
  operation: string;
  method: string;
  /** Sent as it is; `{pet}`, `{category}`, `{order}`, `{message}`, `{key}`, `{webhook}`, `{delivery}` name the fixtures. */
  path: string;
  as?: Caller;
  headers?: Record<string, string>;
  body?: BodySource;
  /**
   * How the request travels: `fetch` (default), `stream` (the body as a chunked upload), or `raw`
   * (the bytes exactly as written, `rawHeaders` included verbatim: what `fetch` refuses or
   * rewrites).
   */
  transport?: 'fetch' | 'stream' | 'raw';
  rawHeaders?: string;
  /** Half-closes a raw connection after writing: a client that sent all it ever will. */
  endAfterWriting?: boolean;
  /** The version in a raw request line; `HTTP/1.1` unless told otherwise. */
  httpVersion?: string;
  expected: Expected;
}

export const error = (code: ErrorCode): Expected => ({
  status: errorStatus[code],
  code,
});
export const success = (status: number): Expected => ({ status });
export const refused = (code: ErrorCode): Expected => ({
  ...error(code),
  closes: true,
});

export const INT64_MAX = '9223372036854775807';
export const PAST_INT64 = '9223372036854775808';
export const MIB = 1024 * 1024;
export const JSON_TYPE = { 'content-type': 'application/json' } as const;

/** `path` with every placeholder replaced by the fixture's id. */
export function resolvePath(path: string, fixtures: Fixtures): string {
  return path
    .replaceAll('{pet}', String(fixtures.petId))
    .replaceAll('{category}', String(fixtures.categoryId))
    .replaceAll('{order}', String(fixtures.orderId))
    .replaceAll('{message}', fixtures.messageId)
    .replaceAll('{key}', fixtures.customer.keyId)
    .replaceAll('{webhook}', fixtures.webhookId)
    .replaceAll('{delivery}', fixtures.deliveryId);
}

/** A request with a JSON body. */
export function withJson(
  operation: string,
  method: string,
  path: string,
  name: string,
  body: BodySource,
  expected: Expected,
  as: Caller = 'admin',
): BadInputCase {
  return {
    name: `${operation}: ${name}`,
    operation,
    method,
    path,
    as,
    headers: { ...JSON_TYPE },
    body,
    expected,
  };
}
