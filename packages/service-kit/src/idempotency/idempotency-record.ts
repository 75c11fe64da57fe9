import { createHash } from 'node:crypto';
import type { ErrorBody } from '@petstore/contract';
import { AppError } from '../app-error.js';
import type {
  IdempotencyRecord,
  StoredResponse,
} from './idempotency-repository.js';

/** API.md asks for at least 24 h. */
const RETENTION_MS = 48 * 60 * 60 * 1000;

export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** A request that carries an `Idempotency-Key`, with the operation and body that key is bound to. */
export interface KeyedRequest {
  accountId: string;
  key: string;
  /** `POST /v1/webhooks/wh_1/secret`: one key used on another operation or resource is refused. */
  operation: string;
  body: unknown;
}

/** The key's record, with its `response`: written in the transaction that executed the request. */
export function keyRecord(
  request: KeyedRequest,
  response: StoredResponse,
): IdempotencyRecord {
  const createdAt = new Date();
  return {
    _id: recordIdOf(request),
    requestHash: requestHashOf(request),
    response,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + RETENTION_MS),
  };
}

export function recordIdOf({
  accountId,
  key,
}: Pick<KeyedRequest, 'accountId' | 'key'>): string {
  return `${accountId}:${key}`;
}

/** What a refused request answered, to be answered again to every retry with its key. */
export function refusalOf(error: AppError): StoredResponse {
  const { code, message, status } = error;
  return { status, body: { code, message, status } };
}

/** The first outcome under the key, for a request that used it again: the same body, or 422. */
export function replayOf(
  record: IdempotencyRecord,
  request: KeyedRequest,
): StoredResponse {
  if (record.requestHash !== requestHashOf(request)) {
    throw new AppError(
      'idempotency_key_reused',
      'this Idempotency-Key was used with another request body or operation',
    );
  }
  return record.response;
}

/** A stored outcome as answered: a success is returned, a refusal thrown as it was first answered. */
export function answer(
  response: StoredResponse,
  { replayed }: { replayed: boolean },
) {
  if (response.status < 400) return response;
  const { code, message } = response.body as ErrorBody;
  const headers: Record<string, string> = replayed
    ? { [REPLAYED_HEADER]: 'true' }
    : {};
  throw new AppError(code, message, { headers });
}

/** What a key is bound to: its operation and body. */
export function requestHashOf({ operation, body }: KeyedRequest): string {
  return hashBody({ operation, body });
}

/** SHA-256 of the body's canonical JSON (keys sorted at every level, undefined left out). */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => a.localeCompare(b, 'en'))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
