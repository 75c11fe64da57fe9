import { isDuplicateKey } from '@petstore/service-kit';
import type { Collection, Db } from 'mongodb';
import type { PlacedOrder } from './order-repository.js';

export type StoredResponse = { status: 201; body: PlacedOrder };

/** A key an account used, `_id: "<accountId>:<key>"`: the first request to insert it acts. */
export interface IdempotencyRecord {
  _id: string;
  /** SHA-256 of the canonical request body: the same key with another body is refused. */
  requestHash: string;
  state: 'pending' | 'done';
  claimToken: string;
  /** Past this a pending claim's request counts as dead, and the key may be taken over. */
  leaseExpiresAt: Date;
  response?: StoredResponse;
  createdAt: Date;
  expiresAt: Date;
}

export class IdempotencyRepository {
  readonly #keys: Collection<IdempotencyRecord>;

  constructor(db: Db) {
    this.#keys = db.collection<IdempotencyRecord>('idempotency_keys');
  }

  async claim(record: Omit<IdempotencyRecord, 'state' | 'response'>): Promise<boolean> {
    try {
      await this.#keys.insertOne({ ...record, state: 'pending' });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async find(id: string): Promise<IdempotencyRecord | undefined> {
    return (await this.#keys.findOne({ _id: id })) ?? undefined;
  }

  done(id: string, claimToken: string, response: StoredResponse): Promise<void> {
    return this.#setPending(id, claimToken, { state: 'done', response });
  }

  renew(id: string, claimToken: string, leaseExpiresAt: Date): Promise<void> {
    return this.#setPending(id, claimToken, { leaseExpiresAt });
  }

  async release(id: string, claimToken: string): Promise<void> {
    await this.#keys.deleteOne({ _id: id, claimToken, state: 'pending' });
  }

  async deleteIfExpired(id: string, now: Date): Promise<void> {
    await this.#keys.deleteOne({ _id: id, expiresAt: { $lte: now } });
  }

  async deleteExpired(now: Date): Promise<number> {
    return (await this.#keys.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
  }

  async #setPending(id: string, claimToken: string, $set: Partial<IdempotencyRecord>) {
    await this.#keys.updateOne({ _id: id, claimToken, state: 'pending' }, { $set });
  }
}
