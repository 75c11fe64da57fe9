import type { Db } from 'mongodb';

// MongoDB increments and returns the counter atomically: no concurrent increment can show in the
// value. Two first-ever increments that race to insert it are retried by the server itself (an
// upsert on `_id` that hits a duplicate key), so neither fails.
export async function nextSequenceValue(
  db: Db,
  sequence: string,
  by = 1,
): Promise<number> {
  const counters = db.collection<{ _id: string; value: number }>('counters');
  const after = await counters.findOneAndUpdate(
    { _id: sequence },
    { $inc: { value: by } },
    { upsert: true, returnDocument: 'after' },
  );
  return after?.value ?? by;
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
