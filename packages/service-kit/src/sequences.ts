import type { Db } from 'mongodb';
import { isDuplicateKey } from './mongo.js';

// The value is computed from the counter as it was just before this increment, which MongoDB
// returns with the update, atomically: no concurrent increment can show in it.
export async function nextSequenceValue(
  db: Db,
  sequence: string,
  by = 1,
): Promise<number> {
  const counters = db.collection<{ _id: string; value: number }>('counters');
  const increment = async () => {
    const before = await counters.findOneAndUpdate(
      { _id: sequence },
      { $inc: { value: by } },
      { upsert: true, returnDocument: 'before' },
    );
    return (before?.value ?? 0) + by;
  };
  try {
    return await increment();
  } catch (error) {
    // Two first-ever increments can race to insert the counter; the loser just increments it.
    if (isDuplicateKey(error)) return increment();
    throw error;
  }
}

/** Ids taken `blockSize` at a time; the rest of a block is skipped when its process stops. */
export class SequenceBlocks {
  #next = 0;
  #last = -1;
  #refill: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly sequence: string,
    private readonly blockSize: number,
  ) {}

  async next(): Promise<number> {
    while (this.#next > this.#last) {
      this.#refill ??= nextSequenceValue(this.db, this.sequence, this.blockSize)
        .then((last) => {
          this.#next = last - this.blockSize + 1;
          this.#last = last;
        })
        .finally(() => {
          this.#refill = undefined;
        });
      await this.#refill;
    }
    return this.#next++;
  }
}
