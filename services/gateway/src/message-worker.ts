import type { Logger } from '@petstore/service-kit';
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
}

/**
 * Delivers queued messages: claims one at a time atomically, delivers it and marks it delivered,
 * until none is left; then sleeps until `kick()` (a message was just queued) or the next poll.
 * Messages queued before a restart are found by the first poll. Delivery is at least once.
 */
export class MessageWorker {
  readonly #options: MessageWorkerOptions;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #kicked = false;

  constructor(options: MessageWorkerOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Looks for work now rather than at the next poll. */
  kick(): void {
    this.#kicked = true;
    this.#wake?.();
  }

  /** Stops after the message in hand, if any. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#kicked = false;
      try {
        while (this.#running && (await this.#deliverOne())) {
          // keep going while there is work
        }
      } catch (error) {
        this.#options.logger.warn({ err: error }, 'message delivery failed; will retry');
      }
      if (this.#running && !this.#kicked) await this.#sleep();
    }
  }

  async #deliverOne(): Promise<boolean> {
    const { messages, deliver, leaseMs } = this.#options;
    const claimed = await messages.claimNext(leaseMs);
    if (!claimed) return false;
    await deliver(claimed);
    await messages.markDelivered(claimed);
    return true;
  }

  #sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(wake, this.#options.pollMs);
      timer.unref();
      const done = () => {
        this.#wake = undefined;
      };
      function wake() {
        clearTimeout(timer);
        done();
        resolve();
      }
      this.#wake = wake;
    });
  }
}
