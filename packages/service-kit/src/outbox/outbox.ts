import { randomUUID } from 'node:crypto';
import type { Collection, Db, Filter } from 'mongodb';
import { Lease } from '../lease.js';
import { currentTraceparent } from '../telemetry/telemetry.js';
import { timeOrderedId } from '../time-ordered-id.js';
import type { Session } from '../transactions.js';

/** A message for another service, written in the transaction of the change it tells of. */
export interface OutboxMessage<Payload = unknown> {
  /** In the order messages were added, like event ids. */
  _id: string;
  /** Whom it goes to: each topic has its own sender. */
  topic: string;
  payload: Payload;
  createdAt: Date;
  /** When it may be sent next: after a failed send, or once the lease of a claim runs out. */
  dueAt: Date;
  attempts: number;
  claim?: string;
  traceparent?: string;
}

export type NewMessage = Pick<OutboxMessage, 'topic' | 'payload'> & {
  id?: string;
};

/** A claim leases messages until they are due again: `dueAt` is both the retry and the lease end. */
const LEASE = new Lease<OutboxMessage>({ owner: 'claim', until: 'dueAt' });

/** The messages of `claimed` whose claim no other process took over meanwhile. */
function stillClaimed(claimed: OutboxMessage[]): Filter<OutboxMessage> {
  return {
    $or: claimed.map(({ _id, claim = '' }) => ({
      _id,
      ...LEASE.heldBy(claim),
    })),
  };
}

/** The service's outbox collection: messages are added in transactions and deleted once sent. */
export class Outbox {
  readonly #messages: Collection<OutboxMessage>;
  #added = () => {};

  constructor(db: Db) {
    this.#messages = db.collection<OutboxMessage>('outbox');
  }

  ensureIndexes(): Promise<string> {
    return this.#messages.createIndex({ dueAt: 1 });
  }

  /** Adds `messages` in the transaction of `session`, in the trace of the request that adds them. */
  async add(session: Session, messages: NewMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const now = new Date();
    const traceparent = currentTraceparent();
    const documents = messages.map(({ id, topic, payload }) => ({
      _id: id ?? timeOrderedId('out'),
      topic,
      payload,
      createdAt: now,
      dueAt: now,
      attempts: 0,
      ...(traceparent === undefined ? {} : { traceparent }),
    }));
    await this.#messages.insertMany(documents, { session });
    // Once the transaction ended: its messages are there to send, unless it aborted.
    session.once('ended', () => {
      this.#added();
    });
  }

  /** `then` runs once a transaction that added messages has ended, e.g. to wake the relay. */
  onAdded(then: () => void): void {
    this.#added = then;
  }

  /** Up to `limit` due messages, oldest due first, leased for `leaseMs` by this claim. */
  async claim(limit: number, leaseMs: number): Promise<OutboxMessage[]> {
    const now = new Date();
    const due = await this.#messages
      .find(LEASE.free(now), { sort: { dueAt: 1 }, limit })
      .toArray();
    if (due.length === 0) return [];
    const claim = randomUUID();
    const ids = due.map(({ _id }) => _id);
    const leased = LEASE.take(claim, leaseMs, now);
    const { modifiedCount } = await this.#messages.updateMany(
      { _id: { $in: ids }, ...LEASE.free(now) },
      { $set: leased },
    );
    if (modifiedCount === due.length)
      return due.map((message) => ({ ...message, ...leased }));
    // Another process claimed some of them in between.
    return this.#messages
      .find({ _id: { $in: ids }, ...LEASE.heldBy(claim) })
      .toArray();
  }

  async sent(messages: OutboxMessage[]): Promise<void> {
    await this.#messages.deleteMany(stillClaimed(messages));
  }

  async retryAt(messages: OutboxMessage[], dueAt: Date): Promise<void> {
    await this.#messages.updateMany(stillClaimed(messages), {
      $set: { dueAt },
      $inc: { attempts: 1 },
    });
  }

  /** How many messages wait, and since when the oldest has. */
  async backlog(): Promise<{ size: number; oldest?: Date }> {
    const [size, oldest] = await Promise.all([
      this.#messages.estimatedDocumentCount(),
      this.#messages.findOne(
        {},
        { sort: { _id: 1 }, projection: { createdAt: 1 } },
      ),
    ]);
    return { size, oldest: oldest?.createdAt };
  }
}
