import type { Logger } from '@petstore/service-kit';

export type KeyUsesWriter = (uses: ReadonlyMap<string, Date>) => Promise<void>;

/** The latest use of each key, kept in memory and written (`lastUsedAt`) in batches. */
export class KeyUsage {
  #pending = new Map<string, Date>();
  #flushing: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: KeyUsesWriter,
    private readonly logger: Logger,
  ) {}

  record(keyId: string, usedAt: Date): void {
    const known = this.#pending.get(keyId);
    if (!known || known < usedAt) this.#pending.set(keyId, usedAt);
  }

  /** Writes every use recorded so far; a failed batch is kept for the next flush. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#flushPending());
    return this.#flushing;
  }

  start(intervalMs: number): void {
    this.#timer ??= setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  async #flushPending(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await this.write(batch);
    } catch (error) {
      for (const [keyId, usedAt] of batch) this.record(keyId, usedAt);
      this.logger.warn(
        { err: error, keys: batch.size },
        'could not record key uses; will retry',
      );
    }
  }
}
