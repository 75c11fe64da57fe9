import { createLogger } from '@petstore/service-kit';
import { describe, expect } from 'vitest';
import { it } from '../test-support/gateway-harness.js';
import { anEvent, seedWebhook } from '../test-support/webhook-fixtures.js';
import { DeliveryRepository } from './delivery-repository.js';
import { deliveryIdOf, EventRecorder } from './event-recorder.js';
import { gatewayCollections } from '../database/collections.js';
import { webhookSweeper } from './webhook-sweeper.js';

const DAY_MS = 86_400_000;

describe('the webhook history sweeper', () => {
  it('deletes ended deliveries and their events once older than the retention, at start and on every interval', async ({
    db,
  }) => {
    const { events, deliveries } = gatewayCollections(db);
    const webhook = await seedWebhook(db);
    const now = Date.now();
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS).toISOString();
    const delivered = anEvent({ timestamp: at(31) });
    const failed = anEvent({ timestamp: at(40) });
    const stillPending = anEvent({ timestamp: at(35) });
    const recent = anEvent({ timestamp: at(29) });
    await new EventRecorder(db, () => {}).recordEvents([delivered, failed, stillPending, recent]);
    const ended = (event: typeof delivered, status: 'delivered' | 'failed') =>
      deliveries.updateOne(
        { _id: deliveryIdOf(webhook.id, event.id) },
        { $set: { status, nextAttemptAt: null } },
      );
    await ended(delivered, 'delivered');
    await ended(failed, 'failed');
    await ended(recent, 'delivered');
    const kept = async () => ({
      events: (await events.find().toArray()).map(({ _id }) => _id).sort(),
      deliveries: (await deliveries.find().toArray()).map(({ eventId }) => eventId).sort(),
    });

    const sweeper = webhookSweeper(new DeliveryRepository(db), {
      logger: createLogger({ name: 'sweeper', level: 'silent' }),
      retentionMs: 30 * DAY_MS,
      intervalMs: 50,
    });
    sweeper.start();
    try {
      const left = [stillPending.id, recent.id].sort();
      await expect.poll(kept).toEqual({ events: left, deliveries: left });
      // Ended later, it goes with a later pass.
      await ended(stillPending, 'failed');
      await expect.poll(kept).toEqual({ events: [recent.id], deliveries: [recent.id] });
    } finally {
      await sweeper.stop();
    }
  });
});
