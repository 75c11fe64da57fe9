import {
  currentTraceparent,
  eventSource,
  recordEvent,
  type Caller,
  type EventSource,
} from '@petstore/service-kit';
import type { Message } from '@petstore/contract';
import type { Db, Filter } from 'mongodb';
import {
  gatewayCollections,
  type GatewayCollections,
  type MessageDocument,
} from '../database/collections.js';
import { newMessageId } from '../database/random-ids.js';

/** A message a worker has claimed until `leaseUntil`. */
export interface ClaimedMessage {
  id: string;
  accountId: string;
  message: string;
  leaseUntil: Date;
  attempts: number;
  traceparent?: string;
}

export class MessageRepository {
  readonly #collections: GatewayCollections;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#collections = gatewayCollections(db);
    this.#now = now;
  }

  async queue(accountId: string, message: string): Promise<Message> {
    const document: MessageDocument = {
      _id: newMessageId(),
      accountId,
      message,
      status: 'queued',
      createdAt: this.#now(),
      leaseUntil: null,
      attempts: 0,
      deliveredAt: null,
      ...traced(),
    };
    await this.#collections.messages.insertOne(document);
    return toMessage(document);
  }

  /** An admin may read anyone's message; another account's is not found. */
  async getVisibleTo(caller: Caller, messageId: string): Promise<Message | undefined> {
    const filter: Filter<MessageDocument> =
      caller.role === 'admin'
        ? { _id: messageId }
        : { _id: messageId, accountId: caller.accountId };
    const document = await this.#collections.messages.findOne(filter);
    return document ? toMessage(document) : undefined;
  }

  /** Claims the message `id` while it is queued. */
  claim(id: string, leaseMs: number): Promise<ClaimedMessage | undefined> {
    return this.#claimOne({ _id: id, status: 'queued' }, leaseMs);
  }

  /** Claims a queued message, or one whose claim ran out (its worker died). */
  claimNext(leaseMs: number): Promise<ClaimedMessage | undefined> {
    const now = this.#now();
    return this.#claimOne(
      { $or: [{ status: 'queued' }, { status: 'delivering', leaseUntil: { $lt: now } }] },
      leaseMs,
    );
  }

  async #claimOne(
    filter: Filter<MessageDocument>,
    leaseMs: number,
  ): Promise<ClaimedMessage | undefined> {
    const leaseUntil = new Date(this.#now().getTime() + leaseMs);
    const claimed = await this.#collections.messages.findOneAndUpdate(
      filter,
      { $set: { status: 'delivering', leaseUntil }, $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
    if (!claimed) return undefined;
    return {
      id: claimed._id,
      accountId: claimed.accountId,
      message: claimed.message,
      leaseUntil,
      attempts: claimed.attempts,
      traceparent: claimed.traceparent,
    };
  }

  /** Queued, or claimed and not yet delivered. */
  countWaiting(): Promise<number> {
    return this.#collections.messages.countDocuments({
      status: { $in: ['queued', 'delivering'] },
    });
  }

  /**
   * Marks a claimed message delivered, with its `message.delivered` event in the same update;
   * false when its lease was lost to another worker meanwhile.
   */
  async delivered({ id, accountId, leaseUntil }: ClaimedMessage): Promise<boolean> {
    const deliveredAt = this.#now();
    const event = recordEvent({ type: 'message.delivered', timestamp: deliveredAt, accountId });
    const result = await this.#collections.messages.updateOne(
      { _id: id, status: 'delivering', leaseUntil },
      {
        $set: { status: 'delivered', deliveredAt, leaseUntil: null, ...event.$set },
        $inc: event.$inc,
      },
    );
    return result.modifiedCount === 1;
  }
}

/** The `message.delivered` events delivered messages carry, each showing the message. */
export function messageEvents(db: Db): EventSource {
  return eventSource({ collection: gatewayCollections(db).messages, toData: toMessage });
}

/** The request's trace, continued by the message's delivery. */
function traced(): { traceparent?: string } {
  const traceparent = currentTraceparent();
  return traceparent === undefined ? {} : { traceparent };
}

function toMessage(document: MessageDocument): Message {
  return {
    id: document._id,
    message: document.message,
    status: document.status === 'delivered' ? 'delivered' : 'queued',
    createdAt: document.createdAt.toISOString(),
  };
}
