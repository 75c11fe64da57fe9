import { contextFrom, inSpan, Worker, type Logger } from '@petstore/service-kit';
import type { ClaimedMessage, MessageRepository } from './message-repository.js';

/** Hands a message over to whatever delivers it; for now, a log line. */
export type Deliver = (message: ClaimedMessage) => Promise<void>;

export function logDelivery(logger: Logger): Deliver {
  return (message) => {
    logger.info(
      { messageId: message.id, accountId: message.accountId, length: message.message.length },
      'message delivered',
    );
    return Promise.resolve();
  };
}

export interface MessageWorkerOptions {
  messages: MessageRepository;
  deliver: Deliver;
  logger: Logger;
  /** How often to look for messages no `queued(id)` named (another process's, a failed one's). */
  pollMs: number;
  /** How long a claim lasts; a message whose worker died is taken over after it. */
  leaseMs: number;
  /** Called once a message is marked delivered, e.g. to wake the relay of its event. */
  onDelivered?: () => void;
}

/** How soon a claim or a marking that failed is tried again. */
const RETRY_MS = 1_000;

export type MessageWorker = Worker & {
  /** Delivers the message `id`, just queued by this process, now. */
  queued(id: string): void;
};

/**
 * Delivers queued messages: claims one at a time atomically, delivers it and marks it delivered.
 * The messages this process queued are claimed by id. Looking through the collection for any
 * other (queued before a restart, by a process that died, or whose delivery failed) is a query no
 * index serves, so it is made at start and then every `pollMs`, and again at once while it finds
 * one. A named message whose claim, or a delivered one whose marking, failed (the database went
 * away) is tried again every `RETRY_MS` until it goes through. Delivery is at least once.
 */
export function messageWorker({
  messages,
  deliver,
  logger,
  pollMs,
  leaseMs,
  onDelivered = () => undefined,
}: MessageWorkerOptions): MessageWorker {
  const named: string[] = [];
  // Delivered, not yet marked so: marked again rather than delivered again.
  const unmarked: ClaimedMessage[] = [];
  let lookedAt = Number.NEGATIVE_INFINITY;
  // Each leaves its message at the front of its list until its command went through.
  const markFirst = async () => {
    const [message] = unmarked;
    if (message && (await messages.markDelivered(message))) onDelivered();
    unmarked.shift();
  };
  const claimNext = async () => {
    const [id] = named;
    if (id !== undefined) {
      const claimed = await messages.claim(id, leaseMs);
      named.shift();
      return claimed;
    }
    if (Date.now() - lookedAt < pollMs) return undefined;
    lookedAt = Date.now();
    const claimed = await messages.claimNext(leaseMs);
    if (claimed) lookedAt = Number.NEGATIVE_INFINITY;
    return claimed;
  };
  const worker = new Worker({
    name: 'messages',
    logger,
    idleMs: pollMs,
    nextDueInMs: () =>
      Promise.resolve(named.length > 0 || unmarked.length > 0 ? RETRY_MS : undefined),
    step: async () => {
      if (unmarked.length > 0) {
        await markFirst();
        return true;
      }
      const claimed = await claimNext();
      if (!claimed) return named.length > 0;
      await inSpan(
        'message delivery',
        {
          parent: contextFrom({ traceparent: claimed.traceparent }),
          attributes: { 'petstore.message.id': claimed.id },
        },
        async () => {
          await deliver(claimed);
          unmarked.push(claimed);
          await markFirst();
        },
      );
      return true;
    },
  });
  return Object.assign(worker, {
    queued(id: string) {
      named.push(id);
      worker.kick();
    },
  });
}
