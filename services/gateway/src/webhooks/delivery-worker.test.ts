import type { ServerResponse } from 'node:http';
import type { Db } from 'mongodb';
import { Webhook } from 'standardwebhooks';
import { describe, expect, onTestFinished, vi } from 'vitest';
import {
  startFakeService,
  type ReceivedRequest,
} from '../test-support/fake-service.js';
import { captureLogs, it } from '../test-support/gateway-harness.js';
import {
  anEvent,
  deliverySettings,
  seedWebhook,
} from '../test-support/webhook-fixtures.js';
import { DeliveryRepository } from './delivery-repository.js';
import {
  deliveryAttempts,
  deliveryLag,
  deliveryWorker,
  type DeliverySettings,
} from './delivery-worker.js';
import { deliveryIdOf, EventRecorder } from './event-recorder.js';
import { gatewayCollections } from '../database/collections.js';

const WAIT = { timeout: 20_000, interval: 20 };
const RETENTION_MS = 3_600_000;

function answer(res: ServerResponse, status: number): void {
  res.writeHead(status).end();
}

/** A delivery worker on `db`, stopped when the test ends. */
function startWorker(
  db: Db,
  settings: Partial<DeliverySettings> = {},
  logs = captureLogs(),
) {
  const worker = deliveryWorker(
    new DeliveryRepository(db, RETENTION_MS),
    deliverySettings(settings),
    logs.logger,
  );
  worker.start();
  onTestFinished(() => worker.stop());
  return worker;
}

/** A webhook at a receiver responding with `status()`, a worker, and one event recorded. */
async function deliverOne(
  db: Db,
  status: () => number,
  settings: Partial<DeliverySettings> = {},
  logs = captureLogs(),
) {
  const hook = await receiver((_request, res) => {
    answer(res, status());
  });
  const webhook = await seedWebhook(db, { url: hook.url });
  const event = await recordOne(db, startWorker(db, settings, logs));
  return { hook, webhook, event };
}

/** Records one event, waking `worker`. */
async function recordOne(db: Db, worker: { kick(): void }) {
  const event = anEvent();
  await new EventRecorder(db, () => {
    worker.kick();
  }).recordEvents([event]);
  return event;
}

function waitForDelivery(
  db: Db,
  webhookId: string,
  eventId: string,
  expected: object,
) {
  return vi.waitFor(async () => {
    expect(await deliveryOf(db, webhookId, eventId)).toMatchObject(expected);
  }, WAIT);
}

function deliveryOf(db: Db, webhookId: string, eventId: string) {
  return gatewayCollections(db).deliveries.findOne({
    _id: deliveryIdOf(webhookId, eventId),
  });
}

async function receiver(
  handler: (request: ReceivedRequest, res: ServerResponse) => void,
) {
  const served = await startFakeService(handler);
  onTestFinished(() => served.close());
  return served;
}

/** What the delivery metrics have counted so far. */
async function metricCounts() {
  const attempts = (await deliveryAttempts.get()).values;
  const outcome = (name: string) =>
    attempts.find(({ labels }) => labels.outcome === name)?.value;
  const lags = (await deliveryLag.get()).values.find(({ metricName }) =>
    metricName?.endsWith('_count'),
  );
  return {
    retry: outcome('retry') ?? 0,
    delivered: outcome('delivered') ?? 0,
    lags: lags?.value ?? 0,
  };
}

describe('the webhook delivery worker', () => {
  it('delivers an event signed so that Standard Webhooks verifies it', async ({
    db,
  }) => {
    const hook = await receiver((_request, res) => {
      answer(res, 204);
    });
    const webhook = await seedWebhook(db, { url: `${hook.url}/hook` });
    const logs = captureLogs();
    const worker = startWorker(db, {}, logs);
    const event = await recordOne(db, worker);

    await vi.waitFor(() => {
      expect(hook.received).toHaveLength(1);
    }, WAIT);
    const [{ body, headers }] = hook.received as [ReceivedRequest];
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['content-type']).toBe('application/json');
    const verified = new Webhook(webhook.secret).verify(
      body,
      headers as Record<string, string>,
    );
    expect(verified).toEqual({
      id: event.id,
      type: event.type,
      timestamp: event.timestamp,
      data: event.data,
    });
    await waitForDelivery(db, webhook.id, event.id, {
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 204,
      nextAttemptAt: null,
      // Removed by the database an hour after the event.
      expireAt: new Date(Date.parse(event.timestamp) + RETENTION_MS),
    });
    const signature = String(headers['webhook-signature']);
    expect(logs.text()).not.toContain(webhook.secret.slice('whsec_'.length));
    expect(logs.text()).not.toContain(signature.slice('v1,'.length));
  });

  it('tries again until the receiver takes it, with the same webhook-id', async ({
    db,
  }) => {
    const before = await metricCounts();
    let calls = 0;
    const { hook, webhook, event } = await deliverOne(db, () =>
      ++calls <= 3 ? 500 : 200,
    );

    await waitForDelivery(db, webhook.id, event.id, {
      status: 'delivered',
      attempts: 4,
      lastStatusCode: 200,
    });
    expect(hook.received.map(({ headers }) => headers['webhook-id'])).toEqual(
      Array(4).fill(event.id),
    );
    const after = await metricCounts();
    expect({
      retry: after.retry - before.retry,
      delivered: after.delivered - before.delivered,
      lags: after.lags - before.lags,
    }).toEqual({ retry: 3, delivered: 1, lags: 1 });
    await vi.waitFor(async () => {
      expect(
        await gatewayCollections(db).webhooks.findOne({ _id: webhook.id }),
      ).toMatchObject({
        failingSince: null,
        enabled: true,
      });
    }, WAIT);
  });

  it('gives a delivery up as failed after the last delay', async ({ db }) => {
    const { hook, webhook, event } = await deliverOne(db, () => 503);

    await waitForDelivery(db, webhook.id, event.id, {
      status: 'failed',
      attempts: 4,
      lastStatusCode: 503,
      nextAttemptAt: null,
      expireAt: new Date(Date.parse(event.timestamp) + RETENTION_MS),
    });
    expect(hook.received).toHaveLength(4);
    expect(
      (await gatewayCollections(db).webhooks.findOne({ _id: webhook.id }))
        ?.failingSince,
    ).toBeInstanceOf(Date);
  });

  it('delivers each event once when two workers share the database', async ({
    db,
  }) => {
    const hook = await receiver((_request, res) => {
      answer(res, 200);
    });
    const webhooks = await Promise.all(
      [1, 2, 3].map((i) => seedWebhook(db, { url: `${hook.url}/${i}` })),
    );
    const workers = [startWorker(db), startWorker(db)];
    const events = Array.from({ length: 20 }, () => anEvent());
    const recorder = new EventRecorder(db, () => {
      workers.forEach((worker) => {
        worker.kick();
      });
    });
    await recorder.recordEvents(events.slice(0, 10));
    await recorder.recordEvents(events.slice(10));

    const { deliveries } = gatewayCollections(db);
    await vi.waitFor(async () => {
      expect(await deliveries.countDocuments({ status: 'delivered' })).toBe(60);
    }, WAIT);
    const receipts = hook.received.map(
      ({ url, headers }) => `${url} ${String(headers['webhook-id'])}`,
    );
    expect(receipts.sort()).toEqual(
      webhooks
        .flatMap((_webhook, i) => events.map(({ id }) => `/${i + 1} ${id}`))
        .sort(),
    );
  });

  it('lets another worker deliver once a worker died mid-delivery', async ({
    db,
  }) => {
    const hanging: ServerResponse[] = [];
    const hook = await receiver((_request, res) => {
      if (hanging.length === 0) hanging.push(res);
      else answer(res, 200);
    });
    const webhook = await seedWebhook(db, { url: hook.url });
    const first = startWorker(db, { leaseMs: 300 });
    const event = await recordOne(db, first);
    await vi.waitFor(() => {
      expect(hook.received).toHaveLength(1);
    }, WAIT);

    await first.stop();
    startWorker(db, { leaseMs: 300 });
    await waitForDelivery(db, webhook.id, event.id, {
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
    });
    expect(hook.received.map(({ headers }) => headers['webhook-id'])).toEqual([
      event.id,
      event.id,
    ]);
  });

  it('keeps delivering to other webhooks while a receiver hangs', async ({
    db,
  }) => {
    const hanging: ServerResponse[] = [];
    const stuck = await receiver((_request, res) => void hanging.push(res));
    const fine = await receiver((_request, res) => {
      answer(res, 200);
    });
    const slow = await seedWebhook(db, { url: stuck.url });
    const quick = await seedWebhook(db, { url: fine.url });
    const worker = startWorker(db);
    const recorder = new EventRecorder(db, () => {
      worker.kick();
    });
    const events = [anEvent(), anEvent(), anEvent()];
    await recorder.recordEvents([events[0]!]);
    await vi.waitFor(() => {
      expect(hanging.length).toBeGreaterThan(0);
    }, WAIT);
    // Recorded once the slow receiver hangs: delivered all the same.
    for (const event of events.slice(1)) await recorder.recordEvents([event]);

    await vi.waitFor(async () => {
      expect(
        await gatewayCollections(db).deliveries.countDocuments({
          webhookId: quick.id,
          status: 'delivered',
        }),
      ).toBe(3);
    }, WAIT);
    for (const event of events) {
      expect(await deliveryOf(db, slow.id, event.id)).toMatchObject({
        status: 'pending',
        attempts: 0,
      });
    }
    expect(await new DeliveryRepository(db, RETENTION_MS).backlog()).toEqual({
      [slow.id]: 3,
    });
  });

  it('does not look for due webhooks for deliveries to one it is delivering to', async ({
    db,
  }) => {
    const hanging: ServerResponse[] = [];
    const stuck = await receiver((_request, res) => void hanging.push(res));
    const fine = await receiver((_request, res) => {
      answer(res, 200);
    });
    const slow = await seedWebhook(db, {
      url: stuck.url,
      events: ['order.created'],
    });
    const repository = new DeliveryRepository(db, RETENTION_MS);
    // Only a wake looks for due webhooks while this test runs, not the worker's poll.
    const worker = deliveryWorker(
      repository,
      deliverySettings({ pollMs: 600_000 }),
      captureLogs().logger,
    );
    worker.start();
    onTestFinished(() => worker.stop());
    const recorder = new EventRecorder(db, (webhookIds) => {
      worker.wake(webhookIds);
    });
    await recorder.recordEvents([anEvent()]);
    await vi.waitFor(() => {
      expect(hanging).toHaveLength(1);
    }, WAIT);

    const claims = vi.spyOn(repository, 'claimWebhook');
    for (let index = 0; index < 5; index++)
      await recorder.recordEvents([anEvent()]);
    expect(claims).not.toHaveBeenCalled();

    // A delivery to a webhook no one is delivering to is looked for, and sent.
    const quick = await seedWebhook(db, {
      url: fine.url,
      events: ['order.cancelled'],
    });
    const cancelled = anEvent({ type: 'order.cancelled' });
    await recorder.recordEvents([cancelled]);
    await waitForDelivery(db, quick.id, cancelled.id, { status: 'delivered' });
    expect(claims).toHaveBeenCalled();
    expect(
      await gatewayCollections(db).deliveries.countDocuments({
        webhookId: slow.id,
      }),
    ).toBe(6);
  });

  it('disables a webhook that fails for longer than allowed', async ({
    db,
  }) => {
    const logs = captureLogs();
    const settings = {
      retryDelaysMs: [100, 100, 100, 100, 100],
      disableAfterMs: 150,
    };
    const { webhook, event } = await deliverOne(db, () => 500, settings, logs);

    // The log follows the update's answer, which can come after another connection sees the update.
    await vi.waitFor(() => {
      expect(logs.text()).toContain('webhook disabled');
    }, WAIT);
    expect(
      await gatewayCollections(db).webhooks.findOne({ _id: webhook.id }),
    ).toMatchObject({
      enabled: false,
    });
    await waitForDelivery(db, webhook.id, event.id, {
      status: 'failed',
      lastError: 'the webhook is disabled or deleted',
    });
  });
});
