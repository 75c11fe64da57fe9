import { Worker, type Logger } from '@petstore/service-kit';
import type { DeliveryRepository } from './delivery-repository.js';

/** Swept rather than expired by a TTL index, which cannot keep an event a pending delivery needs. */
export function webhookSweeper(
  deliveries: DeliveryRepository,
  options: { logger: Logger; retentionMs: number; intervalMs?: number },
): Worker {
  const { logger, retentionMs, intervalMs = 3_600_000 } = options;
  return new Worker({
    name: 'webhook-sweeper',
    logger,
    idleMs: intervalMs,
    step: async () => {
      const swept = await deliveries.sweep(new Date(Date.now() - retentionMs));
      if (swept.deliveries + swept.events > 0) logger.info(swept, 'webhook history swept');
      return false;
    },
  });
}
