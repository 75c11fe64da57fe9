import { isDuplicateKey } from '@petstore/service-kit';
import type { Collection, Db } from 'mongodb';

// One entry per pet, kept for good. The status is computed at push time, so the entry only says
// "push again" (`pending`) and counts triggers (`version`).
export interface OutboxEntry {
  _id: number;
  /** Bumped by every trigger, never reset: pets keeps a status only over an older version. */
  version: number;
  pending: boolean;
  pendingSince?: Date;
  traceparent?: string;
  attempts: number;
  nextAttemptAt: Date;
  /** Until when a worker holds the entry, so that no two pushes of a pet overlap. */
  leaseUntil: Date;
  leaseId?: string;
}

export type ClaimedEntry = Pick<OutboxEntry, 'version' | 'attempts' | 'traceparent'> & {
  petId: number;
  leaseId: string;
};

const UNLEASED = new Date(0);

export class OutboxRepository {
  readonly #outbox: Collection<OutboxEntry>;

  constructor(db: Db) {
    this.#outbox = db.collection<OutboxEntry>('outbox');
  }

  async record(petId: number, now: Date, traceparent?: string): Promise<void> {
    const upsert = () =>
      this.#outbox.updateOne(
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
      // Two first triggers of a pet raced to insert: the loser updates the winner's entry.
      if (!isDuplicateKey(error)) throw error;
      await upsert();
    }
  }

  /** Takes the most overdue entry no one holds (or whose lease ran out) for `leaseMs`. */
  async claimNext(now: Date, leaseMs: number, leaseId: string): Promise<ClaimedEntry | undefined> {
    const entry = await this.#outbox.findOneAndUpdate(
      { pending: true, nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } },
      { $set: { leaseUntil: new Date(now.getTime() + leaseMs), leaseId } },
      { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
    );
    if (!entry) return undefined;
    const { _id: petId, version, attempts, traceparent } = entry;
    return { petId, version, attempts, leaseId, traceparent };
  }

  /** Nothing is owed any more, unless a trigger came since the claim: then it is due again. */
  async delivered({ petId, version, leaseId }: ClaimedEntry): Promise<void> {
    const { matchedCount } = await this.#outbox.updateOne(
      { _id: petId, version },
      {
        $set: { pending: false, attempts: 0, leaseUntil: UNLEASED },
        $unset: { pendingSince: '', traceparent: '' },
      },
    );
    if (matchedCount > 0) return;
    await this.#outbox.updateOne(
      { _id: petId, leaseId },
      { $set: { attempts: 0, leaseUntil: UNLEASED } },
    );
  }

  async drop(petId: number): Promise<void> {
    await this.#outbox.deleteOne({ _id: petId });
  }

  async retryAt({ petId, leaseId }: ClaimedEntry, at: Date): Promise<void> {
    await this.#outbox.updateOne(
      { _id: petId, leaseId },
      { $set: { nextAttemptAt: at, leaseUntil: UNLEASED }, $inc: { attempts: 1 } },
    );
  }

  async backlog(): Promise<{ size: number; oldest?: Date }> {
    const [size, oldest] = await Promise.all([
      this.#outbox.countDocuments({ pending: true }),
      this.#outbox.findOne({ pending: true }, { sort: { pendingSince: 1 } }),
    ]);
    return { size, oldest: oldest?.pendingSince };
  }
}
