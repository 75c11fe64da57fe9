import { Worker, type Logger } from '@petstore/service-kit';
import type { IdempotencyRepository } from '../repositories/idempotency-repository.js';

/** The embedded database has no TTL index: expired keys are deleted here. */
export function idempotencySweeper(
  keys: IdempotencyRepository,
  logger: Logger,
  intervalMs: number,
) {
  const step = async () => {
    const deleted = await keys.deleteExpired(new Date());
    if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys deleted');
    return false;
  };
  return new Worker({ name: 'idempotency-sweeper', logger, idleMs: intervalMs, step });
}
