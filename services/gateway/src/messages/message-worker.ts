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
  /** How often to look for work when nothing wakes the worker. */
  pollMs: number;
  /** How long a claim lasts; a message whose worker died is taken over after it. */
  leaseMs: number;
  /** Called once a message is marked delivered, e.g. to wake the relay of its event. */
  onDelivered?: () => void;
}

/**
 * Delivers queued messages: claims one at a time atomically, delivers it and marks it delivered,
 * until none is left; then sleeps until kicked (a message was just queued) or the next poll.
 * Messages queued before a restart are found by the first poll. Delivery is at least once.
 */
export function messageWorker({
  messages,
  deliver,
  logger,
  pollMs,
  leaseMs,
  onDelivered = () => undefined,
}: MessageWorkerOptions): Worker {
  return new Worker({
    name: 'messages',
    logger,
    idleMs: pollMs,
    step: async () => {
      const claimed = await messages.claimNext(leaseMs);
      if (!claimed) return false;
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
}
