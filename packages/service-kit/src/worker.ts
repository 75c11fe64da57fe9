import type { Logger } from './logger.js';

export interface WorkerOptions {
  /** Names the worker in its log lines, e.g. `outbox`. */
  name: string;
  logger: Logger;
  /**
   * One unit of work, e.g. claim an entry with a lease, do it, mark it done. True when it did
   * something, so the next step follows at once; false when there was nothing to do.
   */
  step: () => Promise<boolean>;
  /** The longest sleep when a step found nothing to do or failed, unless `kick()` comes first. */
  idleMs: number;
  /**
   * How soon the next piece of work falls due, when that may be sooner than `idleMs` (a retry
   * scheduled with backoff). A failure here is ignored: the next step meets it and logs it.
   */
  nextDueInMs?: () => Promise<number | undefined>;
}

/**
 * The loop every background job runs (outbox, messages, sweepers): step while there is work,
 * otherwise sleep until kicked or until `idleMs` has passed. A failed step is logged and retried
 * after the sleep; the worker never stops by itself.
 */
export class Worker {
  readonly #options: WorkerOptions;
  #running = false;
  #loop: Promise<void> | undefined;
  #kicked = false;
  #wake: (() => void) | undefined;

  constructor(options: WorkerOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Looks for work now rather than after the sleep, e.g. once new work was recorded. */
  kick(): void {
    this.#kicked = true;
    this.#wake?.();
  }

  /** Stops after the step in progress, if any. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
  }

  async #run(): Promise<void> {
    const { name, logger, step } = this.#options;
    while (this.#running) {
      this.#kicked = false;
      let busy = false;
      try {
        busy = await step();
      } catch (error) {
        logger.error({ err: error, worker: name }, `${name}: a step failed; will retry`);
      }
      if (!busy && this.#running && !this.#kicked) await this.#sleep();
    }
  }

  async #sleep(): Promise<void> {
    const { idleMs, nextDueInMs } = this.#options;
    const dueInMs = await nextDueInMs?.().catch(() => undefined);
    if (this.#kicked || !this.#running) return;
    const waitMs = dueInMs === undefined ? idleMs : Math.min(idleMs, Math.max(dueInMs, 0));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#wake?.(), waitMs);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }
}
