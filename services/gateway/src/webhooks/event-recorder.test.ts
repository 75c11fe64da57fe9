import { randomBytes } from 'node:crypto';
import { describe, expect, vi } from 'vitest';
import { it } from '../test-support/gateway-harness.js';
import { anEvent, seedWebhook } from '../test-support/webhook-fixtures.js';
import { deliveryIdOf, EventRecorder } from './event-recorder.js';
import { gatewayCollections } from '../database/collections.js';

describe('recording events', () => {
  it('delivers each event to the enabled webhooks that want it and may see it', async ({
    db,
  }) => {
    const admin = await seedWebhook(db, {
      events: ['order.created', 'inventory.updated'],
    });
    const owner = await seedWebhook(db, {
      accountId: 'acct_a',
      role: 'customer',
      events: ['order.created', 'message.delivered', 'inventory.updated'],
    });
    await seedWebhook(db, { accountId: 'acct_b', role: 'customer' });
    await seedWebhook(db, { enabled: false });
    const order = anEvent({ type: 'order.created', accountId: 'acct_a' });
    const stock = anEvent({ type: 'inventory.updated', accountId: undefined });
    const message = anEvent({ type: 'message.delivered', accountId: 'acct_a' });
    const kicked = vi.fn();

    expect(
      await new EventRecorder(db, kicked).recordEvents([order, stock, message]),
    ).toBe(3);

    const made = await gatewayCollections(db)
      .deliveries.find()
      .sort({ _id: 1 })
      .toArray();
    const expected = [
      [admin.id, order],
      [admin.id, stock],
      [owner.id, order],
      [owner.id, message],
    ] as const;
    expect(made).toEqual(
      expected
        .map(([webhookId, event]) => ({
          _id: deliveryIdOf(webhookId, event.id),
          webhookId,
          eventId: event.id,
          type: event.type,
          eventAt: new Date(event.timestamp),
          data: event.data,
          status: 'pending',
          attempts: 0,
          lastStatusCode: null,
          lastError: null,
          nextAttemptAt: new Date(event.timestamp),
          createdAt: expect.any(Date) as Date,
        }))
        .sort((a, b) => a._id.localeCompare(b._id)),
    );
    expect(kicked).toHaveBeenCalledOnce();
    expect(new Set(kicked.mock.calls[0]?.[0] as string[])).toEqual(
      new Set([admin.id, owner.id]),
    );
  });

  it('changes nothing when the same events are recorded again', async ({
    db,
  }) => {
    await seedWebhook(db, { events: ['order.created', 'order.cancelled'] });
    const batch = [anEvent(), anEvent({ type: 'order.cancelled' })];
    const recorder = new EventRecorder(db);
    await recorder.recordEvents(batch);
    const { deliveries } = gatewayCollections(db);
    const before = await deliveries.find().toArray();

    expect(await recorder.recordEvents(batch)).toBe(0);
    expect(await recorder.recordEvents([batch[1]!, anEvent()])).toBe(1);
    const after = await deliveries
      .find({ eventId: { $in: batch.map(({ id }) => id) } })
      .toArray();
    expect(after).toEqual(before);
  });

  it('makes the deliveries of an event recorded before but not yet fanned out', async ({
    db,
  }) => {
    const event = anEvent();
    const recorder = new EventRecorder(db);
    await recorder.recordEvents([event]);
    const webhook = await seedWebhook(db);

    await recorder.recordEvents([event]);
    expect(
      await gatewayCollections(db).deliveries.countDocuments({
        webhookId: webhook.id,
      }),
    ).toBe(1);
  });

  it('stores the deliveries of events made one after another in the events’ order', async ({
    db,
  }) => {
    const webhook = await seedWebhook(db);
    // Ids as the services make them: the time in milliseconds, in hex, then random digits.
    const made = Array.from({ length: 200 }, (_, index) => {
      const time = (Date.now() + index).toString(16).padStart(12, '0');
      return anEvent({ id: `evt_${time}${randomBytes(10).toString('hex')}` });
    });
    const recorder = new EventRecorder(db);
    for (const event of made.toReversed()) await recorder.recordEvents([event]);

    const stored = await gatewayCollections(db)
      .deliveries.find({ webhookId: webhook.id }, { sort: { _id: 1 } })
      .toArray();
    const timeOf = (eventId: string) =>
      eventId.slice('evt_'.length, 'evt_'.length + 12);
    expect(stored.map(({ eventId }) => timeOf(eventId))).toEqual(
      made.map(({ id }) => timeOf(id)),
    );
    expect(new Set(stored.map(({ _id }) => _id)).size).toBe(made.length);
  });
});
