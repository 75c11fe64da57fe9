import type { Logger } from '@petstore/service-kit';
import type { IdempotencyRepository } from './idempotency-repository.js';

export interface IdempotencySweeper {
  stop(): Promise<void>;
}

/**
 * Deletes expired idempotency keys at start and then every `intervalMs`. FerretDB has no TTL
 * indexes, so the store sweeps on both databases (one code path); reads ignore an expired key in
 * between, so sweeping only bounds the collection's size.
 */
export function startIdempotencySweeper(
  keys: IdempotencyRepository,
  { now, logger, intervalMs }: { now: () => Date; logger: Logger; intervalMs: number },
): IdempotencySweeper {
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = () => {
    sweeping = keys.deleteExpired(now()).then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys deleted');
      },
      (error: unknown) => logger.warn({ err: error }, 'could not sweep expired idempotency keys'),
    );
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}
