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

export type MessageWorker = Worker & {
  /** Delivers the message `id`, just queued by this process, now. */
  queued(id: string): void;
};

/**
 * Delivers queued messages: claims one at a time atomically, delivers it and marks it delivered.
 * The messages this process queued are claimed by id. Looking through the collection for any
 * other (queued before a restart, by a process that died, or whose delivery failed) is a query no
 * index serves, so it is made at start and then every `pollMs`, and again at once while it finds
 * one. Delivery is at least once.
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
  let lookedAt = Number.NEGATIVE_INFINITY;
  const worker = new Worker({
    name: 'messages',
    logger,
    idleMs: pollMs,
    step: async () => {
      const id = named.shift();
      let claimed: ClaimedMessage | undefined;
      if (id !== undefined) {
        claimed = await messages.claim(id, leaseMs);
      } else if (Date.now() - lookedAt >= pollMs) {
        lookedAt = Date.now();
        claimed = await messages.claimNext(leaseMs);
        if (claimed) lookedAt = Number.NEGATIVE_INFINITY;
      }
      if (!claimed) return named.length > 0;
      await inSpan(
        'message delivery',
        {
          parent: contextFrom({ traceparent: claimed.traceparent }),
          attributes: { 'petstore.message.id': claimed.id },
        },
        async () => {
          await deliver(claimed);
          if (await messages.markDelivered(claimed)) onDelivered();
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
