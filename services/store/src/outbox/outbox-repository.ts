import { MongoServerError, type Collection, type Db } from 'mongodb';

/**
 * A pet whose status is pushed to the pets service: one entry per pet, kept for good, whatever
 * the number of triggers. What is pushed is computed at push time, so the entry only says "push
 * again" (`pending`) and counts the triggers (`version`).
 */
export interface OutboxEntry {
  /** The pet's id. */
  _id: number;
  /**
   * Bumped by every trigger, and never reset: a push carries it, and pets keeps a status only
   * over an older version. A push only clears `pending` if no trigger came in between.
   */
  version: number;
  /** A push is owed. */
  pending: boolean;
  /** Since when a push has been owed (set while `pending`). */
  pendingSince?: Date;
  /** The trace of the last trigger, continued by the push. */
  traceparent?: string;
  /** Failed pushes since the entry was made; sets the backoff. */
  attempts: number;
  nextAttemptAt: Date;
  /** Until when a worker holds the entry; a trigger leaves it alone, so no two pushes overlap. */
  leaseUntil: Date;
  /** Names the worker pass holding the lease. */
  leaseId?: string;
}

/** A claimed entry, as the claim found it. */
export interface ClaimedEntry {
  petId: number;
  version: number;
  attempts: number;
  leaseId: string;
  traceparent?: string;
}

const DUPLICATE_KEY = 11000;
const UNLEASED = new Date(0);

export class OutboxRepository {
  private readonly outbox: Collection<OutboxEntry>;

  constructor(db: Db) {
    this.outbox = db.collection<OutboxEntry>('outbox');
  }

  /** Notes that the pet's status must be pushed, due at once (one upsert), in `traceparent`. */
  async record(petId: number, now: Date, traceparent?: string): Promise<void> {
    const upsert = () =>
      this.outbox.updateOne(
        { _id: petId },
        {
          $inc: { version: 1 },
          $set: { pending: true, nextAttemptAt: now, ...(traceparent && { traceparent }) },
          $min: { pendingSince: now },
          $setOnInsert: { attempts: 0, leaseUntil: UNLEASED },
        },
        { upsert: true },
      );
    try {
      await upsert();
    } catch (error) {
      // Two first triggers for one pet can race to insert; the loser updates the winner's entry.
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) await upsert();
      else throw error;
    }
  }

  /**
   * Takes the most overdue entry no one holds, for `leaseMs`; undefined when none is due. A lease
   * that ran out (its worker died) frees the entry again.
   */
  async claimDue(now: Date, leaseMs: number, leaseId: string): Promise<ClaimedEntry | undefined> {
    const entry = await this.outbox.findOneAndUpdate(
      { pending: true, nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } },
      { $set: { leaseUntil: new Date(now.getTime() + leaseMs), leaseId } },
      { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
    );
    if (!entry) return undefined;
    return {
      petId: entry._id,
      version: entry.version,
      attempts: entry.attempts,
      leaseId,
      traceparent: entry.traceparent,
    };
  }

  /**
   * After a delivered push: nothing is owed any more if no trigger came since it was claimed;
   * else the entry goes, due, for another push.
   */
  async delivered(entry: ClaimedEntry): Promise<void> {
    const { matchedCount } = await this.outbox.updateOne(
      { _id: entry.petId, version: entry.version },
      {
        $set: { pending: false, attempts: 0, leaseUntil: UNLEASED },
        $unset: { pendingSince: '', traceparent: '' },
      },
    );
    if (matchedCount === 0) {
      await this.outbox.updateOne(
        { _id: entry.petId, leaseId: entry.leaseId },
        { $set: { attempts: 0, leaseUntil: UNLEASED } },
      );
    }
  }

  /** Drops the entry whatever its version (the pet no longer exists, so nothing is to push). */
  async drop(petId: number): Promise<void> {
    await this.outbox.deleteOne({ _id: petId });
  }

  /** After a failed push: due again at `at`, one more attempt counted. */
  async retryAt(entry: ClaimedEntry, at: Date): Promise<void> {
    await this.outbox.updateOne(
      { _id: entry.petId, leaseId: entry.leaseId },
      { $set: { nextAttemptAt: at, leaseUntil: UNLEASED }, $inc: { attempts: 1 } },
    );
  }

  /** How many pets' pushes are owed, and since when the oldest has been (undefined: none). */
  async backlog(): Promise<{ size: number; oldest?: Date }> {
    const [size, oldest] = await Promise.all([
      this.outbox.countDocuments({ pending: true }),
      this.outbox.findOne({ pending: true }, { sort: { pendingSince: 1 } }),
    ]);
    return { size, oldest: oldest?.pendingSince };
  }

  async find(petId: number): Promise<OutboxEntry | undefined> {
    return (await this.outbox.findOne({ _id: petId })) ?? undefined;
  }
}
