import { Worker, type Logger } from '@petstore/service-kit';
import type { IdempotencyRepository } from './idempotency-repository.js';

/**
 * Deletes expired idempotency keys at start and then every `intervalMs`. The embedded database
 * has no TTL indexes, so the store sweeps on every database (one code path); reads ignore an
 * expired key in between, so sweeping only bounds the collection's size.
 */
export function idempotencySweeper(
  keys: IdempotencyRepository,
  { now, logger, intervalMs }: { now: () => Date; logger: Logger; intervalMs: number },
): Worker {
  return new Worker({
    name: 'idempotency-sweeper',
    logger,
    idleMs: intervalMs,
    step: async () => {
      const deleted = await keys.deleteExpired(now());
      if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys deleted');
      return false;
    },
  });
}
