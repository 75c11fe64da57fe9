import { MongoServerError, type Db } from 'mongodb';

interface Counter {
  _id: string;
  value: number;
}

/**
 * The next id of a sequence, from a counter document incremented in one atomic update: ids are
 * sequential from 1 and never reused, even when the document that had one is deleted.
 */
export function nextSequenceValue(db: Db, sequence: string): Promise<number> {
  return advanceSequence(db, sequence, 1);
}

/**
 * Moves the sequence `by` ids at once and answers the last of them. The counter is read as it was
 * before the increment and the increment added to it: some servers (mongo-java-server 1.47) build
 * the document after an update by reading it again, so a concurrent increment can show in it.
 */
async function advanceSequence(db: Db, sequence: string, by: number): Promise<number> {
  const counters = db.collection<Counter>('counters');
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
    if (error instanceof MongoServerError && error.code === 11000) return increment();
    throw error;
  }
}

/**
 * Ids of a sequence handed out from blocks of `blockSize` taken from the counter document at once,
 * so that most ids cost no database round trip. Ids stay unique and are never reused, whatever the
 * number of processes; they grow within a process, interleave between processes, and the rest of
 * a block is skipped when its process stops.
 */
export class SequenceBlocks {
  readonly #db: Db;
  readonly #sequence: string;
  readonly #blockSize: number;
  #next = 0;
  #last = -1;
  #refill: Promise<void> | undefined;

  constructor(db: Db, sequence: string, blockSize: number) {
    this.#db = db;
    this.#sequence = sequence;
    this.#blockSize = blockSize;
  }

  async next(): Promise<number> {
    while (this.#next > this.#last) {
      // One block request at a time: the callers that ran out wait for it together.
      this.#refill ??= advanceSequence(this.#db, this.#sequence, this.#blockSize)
        .then((last) => {
          this.#next = last - this.#blockSize + 1;
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
