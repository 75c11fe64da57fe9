import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { Session } from '../transactions.js';

export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** API.md asks for at least 24 h. */
const RETENTION_MS = 48 * 60 * 60 * 1000;

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

export const idOf = ({ accountId, key }: KeyedRequest) => `${accountId}:${key}`;

/** What a request answered: the resource it made, or the Error it was refused with. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

/** The outcome of the first request under a key, `_id: "<accountId>:<key>"`. */
export interface IdempotencyRecord {
  _id: string;
  /** SHA-256 of the canonical request body: the same key with another body is refused. */
  requestHash: string;
  response: StoredResponse;
  createdAt: Date;
  /** MongoDB deletes the record past this (a TTL index). */
  expiresAt: Date;
}

export class IdempotencyRepository {
  readonly #keys: Collection<IdempotencyRecord>;

  constructor(db: Db) {
    this.#keys = db.collection<IdempotencyRecord>('idempotency_keys');
  }

  /** MongoDB deletes a key's record once it expires. Run at every start. */
  async ensureIndexes(): Promise<void> {
    await this.#keys.createIndex(
      { expiresAt: 1 },
      { name: 'expires_at', expireAfterSeconds: 0 },
    );
  }

  /**
   * The records of `requests` that have not expired, in the transaction of `session` if given.
   * `timeoutMS` bounds the whole read, the wait for a primary included.
   */
  async find(
    requests: KeyedRequest[],
    { session, timeoutMS }: { session?: Session; timeoutMS?: number } = {},
  ): Promise<IdempotencyRecord[]> {
    if (requests.length === 0) return [];
    const now = new Date();
    const ids = requests.map(idOf);
    const found = this.#keys.find(
      { _id: { $in: ids } },
      { session, timeoutMS },
    );
    // A record past its time may wait a minute for MongoDB's TTL monitor: it is gone already.
    return (await found.toArray()).filter(({ expiresAt }) => expiresAt > now);
  }

  /** In the transaction that executed the requests, so that the keys and outcomes commit together. */
  async insert(
    executed: { keyed: KeyedRequest; response: StoredResponse }[],
    session: Session,
  ): Promise<IdempotencyRecord[]> {
    const createdAt = new Date();
    const records = executed.map(({ keyed, response }) => ({
      _id: idOf(keyed),
      requestHash: requestHashOf(keyed),
      response,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + RETENTION_MS),
    }));
    if (records.length === 0) return records;
    // An expired record MongoDB has not deleted yet is replaced.
    const replacements = records.map((record) => ({
      replaceOne: {
        filter: { _id: record._id },
        replacement: record,
        upsert: true,
      },
    }));
    await this.#keys.bulkWrite(replacements, { session });
    return records;
  }
}
