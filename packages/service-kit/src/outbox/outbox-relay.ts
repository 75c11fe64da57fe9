import { backoffMs } from '../backoff.js';
import type { Logger } from '../logger.js';
import { contextFrom, inSpan } from '../telemetry/telemetry.js';
import { Worker } from '../worker.js';
import type { Outbox, OutboxMessage } from './outbox.js';

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
