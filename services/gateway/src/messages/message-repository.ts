import { randomUUID } from 'node:crypto';
import type { Message } from '@petstore/contract';
import {
  currentTraceparent,
  Lease,
  type Caller,
  type Session,
} from '@petstore/service-kit';
import type { Db, Filter } from 'mongodb';
import {
  gatewayCollections,
  visibleTo,
  type GatewayCollections,
  type MessageDocument,
} from '../database/collections.js';
import { newMessageId } from '../database/ids.js';

export type ClaimedMessage = MessageDocument & {
  id: string;
  leaseOwner: string;
};

/** Queued, or claimed and not yet delivered. */
const WAITING: MessageDocument['status'][] = ['queued', 'delivering'];
const MESSAGE_LEASE = new Lease<MessageDocument>({
  owner: 'leaseOwner',
  until: 'leaseUntil',
});

export class MessageRepository {
  readonly #messages: GatewayCollections['messages'];

  constructor(db: Db) {
    this.#messages = gatewayCollections(db).messages;
  }

  /** Queues a message, in `session`'s transaction when given one. */
  async queue(
    accountId: string,
    message: string,
    session?: Session,
  ): Promise<Message> {
    const traceparent = currentTraceparent();
    const document: MessageDocument = {
      _id: newMessageId(),
      accountId,
      message,
      createdAt: new Date(),
      status: 'queued',
      attempts: 0,
      deliveredAt: null,
      // Continued by the message's delivery.
      ...(traceparent === undefined ? {} : { traceparent }),
    };
    await this.#messages.insertOne(document, { session });
    return toMessage(document);
  }

  async getVisibleTo(
    caller: Caller,
    messageId: string,
  ): Promise<Message | undefined> {
    const document = await this.#messages.findOne(visibleTo(caller, messageId));
    return document ? toMessage(document) : undefined;
  }

  /**
   * Claims the message `id` for `leaseMs` while it is queued; without an id, a queued message or
   * one whose claim ran out (its worker died). A claim the database applied but whose answer was
   * lost twice (the driver retries once) waits for its lease to run out.
   */
  async claim(
    leaseMs: number,
    id?: string,
  ): Promise<ClaimedMessage | undefined> {
    const filter: Filter<MessageDocument> =
      id === undefined
        ? { status: { $in: WAITING }, ...MESSAGE_LEASE.free(new Date()) }
        : { _id: id, status: 'queued' };
    const leaseOwner = randomUUID();
    const claimed = await this.#messages.findOneAndUpdate(
      filter,
      {
        $set: {
          status: 'delivering',
          ...MESSAGE_LEASE.take(leaseOwner, leaseMs),
        },
        $inc: { attempts: 1 },
      },
      { returnDocument: 'after' },
    );
    return claimed ? { ...claimed, id: claimed._id, leaseOwner } : undefined;
  }

  countWaiting(): Promise<number> {
    return this.#messages.countDocuments({ status: { $in: WAITING } });
  }

  /** Marks a claimed message delivered; false when its lease was lost to another worker meanwhile. */
  async markDelivered(
    claimed: ClaimedMessage,
    session: Session,
  ): Promise<boolean> {
    const { id, leaseOwner } = claimed;
    const { modifiedCount } = await this.#messages.updateOne(
      { _id: id, status: 'delivering', ...MESSAGE_LEASE.heldBy(leaseOwner) },
      {
        $set: { status: 'delivered', deliveredAt: new Date() },
        $unset: MESSAGE_LEASE.released(),
      },
      { session },
    );
    return modifiedCount === 1;
  }
}

/** A message as the API shows it, once delivered. */
export function deliveredMessage(claimed: ClaimedMessage): Message {
  return toMessage({ ...claimed, status: 'delivered' });
}

function toMessage(
  document: Pick<MessageDocument, '_id' | 'message' | 'status' | 'createdAt'>,
): Message {
  const { _id: id, message, status, createdAt } = document;
  const shown = status === 'delivered' ? 'delivered' : 'queued';
  return { id, message, status: shown, createdAt: createdAt.toISOString() };
}
