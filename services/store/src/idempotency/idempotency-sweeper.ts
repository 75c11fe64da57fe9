import { Worker, type Logger } from '@petstore/service-kit';
import type { IdempotencyRepository } from '../repositories/idempotency-repository.js';

/**
 * Deletes expired keys every `intervalMs`: the embedded database has no TTL index. Reads ignore an
 * expired key, so sweeping only bounds the collection's size.
 */
export function idempotencySweeper(
  keys: IdempotencyRepository,
  logger: Logger,
  intervalMs: number,
): Worker {
  const step = async () => {
    const deleted = await keys.deleteExpired(new Date());
    if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys deleted');
    return false;
  };
  return new Worker({ name: 'idempotency-sweeper', logger, idleMs: intervalMs, step });
}
