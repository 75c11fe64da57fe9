import type { Collection, Db } from 'mongodb';
import type { Session } from '../transactions.js';
import { requestHashOf, type KeyedRequest } from './idempotency-record.js';

/** API.md asks for at least 24 h. */
const RETENTION_MS = 48 * 60 * 60 * 1000;

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

  /** The records of `requests` that have not expired, in the transaction of `session`. */
  async findMany(
    requests: KeyedRequest[],
    session: Session,
  ): Promise<IdempotencyRecord[]> {
    if (requests.length === 0) return [];
    const ids = requests.map(idOf);
    const now = new Date();
    const found = this.#keys.find({ _id: { $in: ids } }, { session });
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
