import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './logger.js';

export interface WorkerOptions {
  name: string;
  logger: Logger;
  /** True when it found work. */
  step: () => Promise<boolean>;
  idleMs: number;
  /** A retry due sooner than `idleMs`; a failure here is ignored (the next step logs it). */
  nextDueInMs?: () => Promise<number | undefined>;
}

export class Worker {
  #running = false;
  #loop: Promise<void> | undefined;
  #kicked = false;
  #wake: (() => void) | undefined;

  constructor(private readonly options: WorkerOptions) {}

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  kick(): void {
    this.#kicked = true;
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
  }

  async #run(): Promise<void> {
    const { name, logger, step } = this.options;
    while (this.#running) {
      this.#kicked = false;
      let busy = false;
      try {
        busy = await step();
      } catch (error) {
        logger.error(
          { err: error, worker: name },
          `${name}: a step failed; will retry`,
        );
      }
      if (!busy && this.#running && !this.#kicked) await this.#sleep();
    }
  }

  async #sleep(): Promise<void> {
    const { idleMs, nextDueInMs } = this.options;
    const dueInMs = await nextDueInMs?.().catch(() => undefined);
    if (this.#kicked || !this.#running) return;
    const waitMs =
      dueInMs === undefined ? idleMs : Math.min(idleMs, Math.max(dueInMs, 0));
    const woken = new AbortController();
    this.#wake = woken.abort.bind(woken);
    const { signal } = woken;
    await sleep(waitMs, undefined, { signal }).catch(() => undefined);
    this.#wake = undefined;
  }
}
