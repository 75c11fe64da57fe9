import { createHash } from 'node:crypto';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** A request that carries an `Idempotency-Key`, with the operation and body that key is bound to. */
export interface KeyedRequest {
  accountId: string;
  key: string;
  /** `POST /v1/webhooks/wh_1/secret`: one key used on another operation or resource is refused. */
  operation: string;
  body: unknown;
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
