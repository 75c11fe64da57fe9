import { MongoServerError, type Collection, type Db } from 'mongodb';
import type { PlacedOrder } from '../orders/order-repository.js';

/** The answer a key replays: the order it placed, with the status it was placed with. */
export interface StoredResponse {
  status: 201;
  body: PlacedOrder;
}

/**
 * A key an account used, `_id: "<accountId>:<key>"`: unique by construction, so the first
 * request to insert it is the only one that acts on it.
 */
export interface IdempotencyRecord {
  _id: string;
  /** SHA-256 of the canonical request body: the same key with another body is refused. */
  requestHash: string;
  state: 'pending' | 'done';
  /** Names the request that claimed the key, so only it completes or releases the claim. */
  claimToken: string;
  /** After this a pending claim counts as abandoned (its request died) and may be taken over. */
  leaseExpiresAt: Date;
  response?: StoredResponse;
  createdAt: Date;
  /** Past this the record counts as absent; the sweeper deletes it. */
  expiresAt: Date;
}

const DUPLICATE_KEY = 11000;

export class IdempotencyRepository {
  private readonly keys: Collection<IdempotencyRecord>;

  constructor(db: Db) {
    this.keys = db.collection<IdempotencyRecord>('idempotency_keys');
  }

  /** Inserts the pending record; false when the key is already someone's (duplicate key). */
  async claim(record: Omit<IdempotencyRecord, 'state' | 'response'>): Promise<boolean> {
    try {
      await this.keys.insertOne({ ...record, state: 'pending' });
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async find(id: string): Promise<IdempotencyRecord | undefined> {
    return (await this.keys.findOne({ _id: id })) ?? undefined;
  }

  /** Stores the answer of the claim that `claimToken` names. */
  async complete(id: string, claimToken: string, response: StoredResponse): Promise<void> {
    await this.keys.updateOne(
      { _id: id, claimToken, state: 'pending' },
      { $set: { state: 'done', response } },
    );
  }

  /** Extends the pending claim that `claimToken` names, while its request runs. */
  async renew(id: string, claimToken: string, leaseExpiresAt: Date): Promise<void> {
    await this.keys.updateOne(
      { _id: id, claimToken, state: 'pending' },
      { $set: { leaseExpiresAt } },
    );
  }

  /** Gives up a pending claim (its request failed, or it was abandoned) so the key is free. */
  async release(id: string, claimToken: string): Promise<void> {
    await this.keys.deleteOne({ _id: id, claimToken, state: 'pending' });
  }

  /** Deletes the record if it has expired by `now`. */
  async deleteIfExpired(id: string, now: Date): Promise<void> {
    await this.keys.deleteOne({ _id: id, expiresAt: { $lte: now } });
  }

  /** Deletes every record expired by `now`; how many. */
  async deleteExpired(now: Date): Promise<number> {
    return (await this.keys.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
  }
}
