import type { Collection, Db } from 'mongodb';
import type { Session } from '../transactions.js';
import { requestHashOf, type KeyedRequest } from './idempotency-record.js';

/** API.md asks for at least 24 h. */
const RETENTION_MS = 48 * 60 * 60 * 1000;

const idOf = ({ accountId, key }: KeyedRequest) => `${accountId}:${key}`;

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

  /** `timeoutMS` bounds the whole read, the wait for a primary included. */
  async find(
    keyed: KeyedRequest,
    { session, timeoutMS }: { session?: Session; timeoutMS?: number } = {},
  ): Promise<IdempotencyRecord | undefined> {
    const record = await this.#keys.findOne(
      { _id: idOf(keyed) },
      { session, timeoutMS },
    );
    // A record past its time may wait a minute for MongoDB's TTL monitor: it is gone already.
    return record && record.expiresAt > new Date() ? record : undefined;
  }

  /** In the transaction that executed the request, so that the key and its outcome commit together. */
  async insert(
    keyed: KeyedRequest,
    response: StoredResponse,
    session: Session,
  ): Promise<void> {
    const createdAt = new Date();
    const record = {
      _id: idOf(keyed),
      requestHash: requestHashOf(keyed),
      response,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + RETENTION_MS),
    };
    await this.#keys.replaceOne({ _id: record._id }, record, {
      upsert: true,
      session,
    });
  }
}
