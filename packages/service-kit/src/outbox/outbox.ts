import { randomUUID } from 'node:crypto';
import type { Collection, Db, Filter } from 'mongodb';
import { backoffMs } from '../backoff.js';
import { Lease } from '../lease.js';
import type { Logger } from '../logger.js';
import {
  contextFrom,
  currentTraceparent,
  inSpan,
} from '../telemetry/telemetry.js';
import { timeOrderedId } from '../time-ordered-id.js';
import type { Session } from '../transactions.js';
import { Worker } from '../worker.js';

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

/** Sends one topic's messages; throws when they must be sent again. At least once: a repeat is harmless. */
export type Sender = (messages: OutboxMessage[]) => Promise<void>;

export interface OutboxRelayOptions {
  outbox: Outbox;
  senders: Record<string, Sender>;
  logger: Logger;
  /** How often it looks for due messages no wake-up announced: a failed send's, a dead process's. */
  pollMs: number;
  backoff?: { baseMs: number; maxMs: number };
}

const BATCH = 100;
/** A claim a dead process left is sent by another once this has passed. */
const LEASE_MS = 30_000;
/** A wake-up waits this long, so that what commits meanwhile is sent in the same batch. */
const GATHER_MS = 10;

/**
 * Sends what is in the outbox, topic by topic, and deletes what was sent. A commit that added
 * messages wakes it, 10 ms later; otherwise it looks every `pollMs`, or when the first retry it
 * put off is due.
 */
export function outboxRelay(options: OutboxRelayOptions): Worker {
  const {
    outbox,
    senders,
    logger,
    pollMs,
    backoff = { baseMs: 100, maxMs: 60_000 },
  } = options;
  let nextRetryAt: number | undefined;

  async function send(topic: string, messages: OutboxMessage[]): Promise<void> {
    const sender = senders[topic];
    const parent = contextFrom({ traceparent: messages[0]?.traceparent });
    const attributes = {
      'petstore.outbox.topic': topic,
      'petstore.outbox.count': messages.length,
    };
    try {
      if (!sender) throw new Error(`[outbox] no sender for the topic ${topic}`);
      await inSpan('outbox push', { parent, attributes }, () =>
        sender(messages),
      );
    } catch (error) {
      const attempts = Math.max(...messages.map((message) => message.attempts));
      const retryAt = Date.now() + backoffMs(attempts, backoff);
      await outbox.retryAt(messages, new Date(retryAt));
      nextRetryAt = Math.min(nextRetryAt ?? retryAt, retryAt);
      logger.warn(
        { err: error, topic, count: messages.length, attempts },
        'outbox: will retry',
      );
      return;
    }
    await outbox.sent(messages);
  }

  const worker = new Worker({
    name: 'outbox',
    logger,
    idleMs: pollMs,
    step: async () => {
      // A retry that is due now is claimed below; only a later one still needs a wake-up.
      if (nextRetryAt !== undefined && nextRetryAt <= Date.now())
        nextRetryAt = undefined;
      const claimed = await outbox.claim(BATCH, LEASE_MS);
      const topics = new Set(claimed.map((message) => message.topic));
      for (const topic of topics) {
        await send(
          topic,
          claimed.filter((message) => message.topic === topic),
        );
      }
      return claimed.length === BATCH;
    },
    nextDueInMs: () =>
      Promise.resolve(
        nextRetryAt === undefined ? undefined : nextRetryAt - Date.now(),
      ),
  });
  let gathering: NodeJS.Timeout | undefined;
  outbox.onAdded(() => {
    gathering ??= setTimeout(() => {
      gathering = undefined;
      worker.kick();
    }, GATHER_MS).unref();
  });
  return worker;
}
