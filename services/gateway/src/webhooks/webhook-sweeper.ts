import { Worker, type Logger } from '@petstore/service-kit';
import type { WebhookCollections } from './webhook-collections.js';

/** How often the history is swept: it only bounds the collections' size. */
const SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Deletes what happened before `cutoff`, by the event's own time: the deliveries that ended
 * (delivered or failed), then the events no pending delivery still needs. A delivery retried
 * meanwhile is either still there and pending, so its event stays, or already gone (404).
 */
async function sweepWebhookHistory(
  { events, deliveries }: WebhookCollections,
  cutoff: Date,
): Promise<{ deliveries: number; events: number }> {
  const ended = await deliveries.deleteMany({
    eventAt: { $lt: cutoff },
    status: { $in: ['delivered', 'failed'] },
  });
  const needed = await deliveries.distinct('eventId', {
    eventAt: { $lt: cutoff },
    status: 'pending',
  });
  const old = await events.deleteMany({ timestamp: { $lt: cutoff }, _id: { $nin: needed } });
  return { deliveries: ended.deletedCount, events: old.deletedCount };
}

/**
 * Sweeps the webhook history older than `retentionMs` at start and then every `intervalMs`.
 * The embedded database has no TTL indexes, so the gateway sweeps on every database (one code path).
 */
export function webhookSweeper(
  collections: WebhookCollections,
  {
    now,
    logger,
    retentionMs,
    intervalMs = SWEEP_INTERVAL_MS,
  }: { now: () => Date; logger: Logger; retentionMs: number; intervalMs?: number },
): Worker {
  return new Worker({
    name: 'webhook-sweeper',
    logger,
    idleMs: intervalMs,
    step: async () => {
      const cutoff = new Date(now().getTime() - retentionMs);
      const swept = await sweepWebhookHistory(collections, cutoff);
      if (swept.deliveries + swept.events > 0) logger.info(swept, 'webhook history swept');
      return false;
    },
  });
}
