import { MongoServerError, type Db } from 'mongodb';

interface Counter {
  _id: string;
  value: number;
}

/**
 * The next id of a sequence, from a counter document incremented in one atomic update: ids are
 * sequential from 1 and never reused, even when the document that had one is deleted.
 */
export async function nextSequenceValue(db: Db, sequence: string): Promise<number> {
  const counters = db.collection<Counter>('counters');
  const increment = () =>
    counters.findOneAndUpdate(
      { _id: sequence },
      { $inc: { value: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
  try {
    return (await increment())!.value;
  } catch (error) {
    // Two first-ever increments can race to insert the counter; the loser just increments it.
    if (error instanceof MongoServerError && error.code === 11000)
      return (await increment())!.value;
    throw error;
  }
}
