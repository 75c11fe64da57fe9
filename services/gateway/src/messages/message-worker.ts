import {
  contextFrom,
  inSpan,
  newEvent,
  Worker,
  type Logger,
  type Transaction,
} from '@petstore/service-kit';
import type { EventRecorder } from '../webhooks/event-recorder.js';
import {
  deliveredMessage,
  type ClaimedMessage,
  type MessageRepository,
} from './message-repository.js';

export type Deliver = (message: ClaimedMessage) => Promise<void>;

/** Delivering a message is, for now, a log line (never its text). */
export function logDelivery(logger: Logger): Deliver {
  return ({ id, accountId, message }) => {
    logger.info(
      { messageId: id, accountId, length: message.length },
      'message delivered',
    );
    return Promise.resolve();
  };
}

export interface MessageWorkerOptions {
  messages: MessageRepository;
  /** Records a delivered message's `message.delivered` for webhooks, with its marking. */
  recorder: EventRecorder;
  transaction: Transaction;
  deliver: Deliver;
  logger: Logger;
  /** How often to search the collection for messages no `queued(id)` named. */
  pollMs: number;
  /** How long a claim lasts; a message whose worker died is taken over after it. */
  leaseMs: number;
}

/** How soon a claim or a marking that failed (the database went away) is tried again. */
const RETRY_MS = 1_000;

/**
 * Claims one message at a time, delivers it and marks it delivered; at least once. Messages this
 * process queued are claimed by id; looking through the collection is for the others, at start,
 * every `pollMs`, and at once again while it finds one.
 */
export function messageWorker(options: MessageWorkerOptions) {
  const { messages, recorder, transaction, deliver, logger, pollMs, leaseMs } =
    options;
  const named: string[] = [];
  // Delivered but not yet marked so: marked again rather than delivered again.
  let unmarked: ClaimedMessage | undefined;
  let lookedAt = Number.NEGATIVE_INFINITY;
  const claim = async () => {
    const [id] = named;
    if (id !== undefined) {
      const claimed = await messages.claim(leaseMs, id);
      named.shift();
      return claimed;
    }
    if (Date.now() - lookedAt < pollMs) return undefined;
    lookedAt = Date.now();
    const claimed = await messages.claim(leaseMs);
    if (claimed) lookedAt = Number.NEGATIVE_INFINITY;
    return claimed;
  };
  const markDelivered = async (message: ClaimedMessage) => {
    unmarked = message;
    const event = newEvent(
      'message.delivered',
      deliveredMessage(message),
      message.accountId,
    );
    await transaction(async (session) => {
      if (await messages.markDelivered(message, session)) {
        await recorder.recordEvents([event], session);
      }
    });
    unmarked = undefined;
  };
  const worker = new Worker({
    name: 'messages',
    logger,
    idleMs: pollMs,
    nextDueInMs: () =>
      Promise.resolve(named.length > 0 || unmarked ? RETRY_MS : undefined),
    step: async () => {
      if (unmarked) {
        await markDelivered(unmarked);
        return true;
      }
      const claimed = await claim();
      if (!claimed) return named.length > 0;
      const parent = contextFrom({ traceparent: claimed.traceparent });
      const attributes = { 'petstore.message.id': claimed.id };
      await inSpan('message delivery', { parent, attributes }, async () => {
        await deliver(claimed);
        await markDelivered(claimed);
      });
      return true;
    },
  });
  return Object.assign(worker, {
    /** Delivers the message `id`, just queued by this process, now. */
    queued(id: string) {
      named.push(id);
      worker.kick();
    },
  });
}
