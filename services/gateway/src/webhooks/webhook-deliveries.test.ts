import type { WebhookDelivery } from '@petstore/contract';
import { describe, expect, vi } from 'vitest';
import {
  ADMIN_API_KEY,
  it,
  startTestGateway,
  signUp,
  type TestGateway,
} from '../test-support/gateway-harness.js';
import { callHttp } from '@petstore/testkit';
import { createWebhook } from '../test-support/webhook-fixtures.js';
import type { WebhookDeliveryDocument } from '../database/collections.js';

const HOUR_MS = 60 * 60 * 1000;

/** A delivery as the recorder and the worker leave it: by default, delivered at the first try. */
function delivery(
  webhookId: string,
  id: string,
  createdAt: Date,
  fields: Partial<WebhookDeliveryDocument> = {},
): WebhookDeliveryDocument {
  return {
    _id: id,
    webhookId,
    eventId: `evt_${id.slice('whd_'.length)}`,
    type: 'order.created',
    eventAt: createdAt,
    data: {},
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
    nextAttemptAt: null,
    createdAt,
    ...fields,
  };
}

function deliveries(gateway: TestGateway) {
  return gateway.db.collection<WebhookDeliveryDocument>('webhook_deliveries');
}

describe('a webhook’s deliveries', () => {
  it('are listed newest first, a page at a time, with what became of each', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const other = await createWebhook(gateway.url, apiKey);
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR_MS);
    const inADay = new Date(now + 24 * HOUR_MS);
    await deliveries(gateway).insertMany([
      delivery(webhook.id, 'whd_oldest', at(3)),
      delivery(webhook.id, 'whd_failed', at(2), {
        status: 'failed',
        attempts: 8,
        lastStatusCode: 503,
      }),
      // Created in the same millisecond: the id decides, here as across a page boundary.
      delivery(webhook.id, 'whd_sameTimeA', at(1)),
      delivery(webhook.id, 'whd_sameTimeB', at(1), {
        status: 'pending',
        attempts: 2,
        lastStatusCode: null,
        lastError: 'connection refused',
        nextAttemptAt: inADay,
      }),
      delivery(other.id, 'whd_otherWebhook', at(0)),
    ]);

    const path = `/v1/webhooks/${webhook.id}/deliveries`;
    const first = await callHttp<WebhookDelivery[]>(
      gateway.url,
      'GET',
      `${path}?limit=3`,
      {
        apiKey,
      },
    );
    expect(first.status).toBe(200);
    expect(first.body).toEqual([
      {
        id: 'whd_sameTimeB',
        eventId: 'evt_sameTimeB',
        type: 'order.created',
        status: 'pending',
        attempts: 2,
        lastStatusCode: null,
        nextAttemptAt: inADay.toISOString(),
        createdAt: at(1).toISOString(),
      },
      expect.objectContaining({
        id: 'whd_sameTimeA',
        status: 'delivered',
        nextAttemptAt: null,
      }),
      expect.objectContaining({
        id: 'whd_failed',
        status: 'failed',
        lastStatusCode: 503,
      }),
    ]);
    const link = /^<([^>]+)>; rel="next"$/.exec(
      first.headers.get('link') ?? '',
    );
    expect(link?.[1]).toMatch(new RegExp(`^${path}\\?limit=3&cursor=`));

    const second = await callHttp<WebhookDelivery[]>(
      gateway.url,
      'GET',
      link![1]!,
      { apiKey },
    );
    expect(second.body.map(({ id }) => id)).toEqual(['whd_oldest']);
    expect(second.headers.get('link')).toBeNull();
  });

  it('are empty for a webhook that has had none', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const answer = await callHttp(
      gateway.url,
      'GET',
      `/v1/webhooks/${webhook.id}/deliveries`,
      {
        apiKey,
      },
    );
    expect(answer).toMatchObject({ status: 200, body: [] });
    expect(answer.headers.get('link')).toBeNull();
  });
});

describe('retrying a delivery', () => {
  it('makes a failed delivery pending again, due now, with 202', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const createdAt = new Date(Date.now() - 30 * HOUR_MS);
    await deliveries(gateway).insertOne(
      delivery(webhook.id, 'whd_gaveUp', createdAt, {
        status: 'failed',
        attempts: 3,
        lastStatusCode: 500,
        expireAt: new Date(createdAt.getTime() + 720 * HOUR_MS),
      }),
    );

    const before = Date.now();
    const path = `/v1/webhooks/${webhook.id}/deliveries/whd_gaveUp/retry`;
    const answer = await callHttp<WebhookDelivery>(gateway.url, 'POST', path, {
      apiKey,
    });
    const afterwards = Date.now();

    expect(answer).toMatchObject({
      status: 202,
      body: {
        id: 'whd_gaveUp',
        eventId: 'evt_gaveUp',
        type: 'order.created',
        status: 'pending',
        attempts: 3,
        lastStatusCode: 500,
        createdAt: createdAt.toISOString(),
      },
    });
    const due = Date.parse(answer.body.nextAttemptAt!);
    expect(due).toBeGreaterThanOrEqual(before);
    expect(due).toBeLessThanOrEqual(afterwards);
    const stored = await deliveries(gateway).findOne({ _id: 'whd_gaveUp' });
    expect(stored?.status).toBe('pending');
    // Pending again, it is no longer due to be removed.
    expect(stored).not.toHaveProperty('expireAt');
  });

  it('is 404 for a delivery the webhook does not have; an admin may retry any', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const other = await createWebhook(gateway.url, apiKey);
    await deliveries(gateway).insertOne(
      delivery(other.id, 'whd_ofTheOther', new Date(), {
        status: 'failed',
        attempts: 8,
      }),
    );

    for (const deliveryId of ['whd_ofTheOther', 'whd_missing']) {
      const path = `/v1/webhooks/${webhook.id}/deliveries/${deliveryId}/retry`;
      expect(
        await callHttp(gateway.url, 'POST', path, { apiKey }),
        deliveryId,
      ).toMatchObject({
        status: 404,
        body: {
          code: 'not_found',
          status: 404,
          message: 'no such delivery of this webhook',
        },
      });
    }
    expect(
      await deliveries(gateway).findOne({ _id: 'whd_ofTheOther' }),
    ).toMatchObject({
      status: 'failed',
    });
    const path = `/v1/webhooks/${other.id}/deliveries/whd_ofTheOther/retry`;
    expect(
      await callHttp(gateway.url, 'POST', path, { apiKey: ADMIN_API_KEY }),
    ).toMatchObject({
      status: 202,
      body: { id: 'whd_ofTheOther', status: 'pending' },
    });
  });

  it('answers 400 validation_failed to an id that is not a delivery id', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const path = `/v1/webhooks/${webhook.id}/deliveries/evt_notADelivery/retry`;
    expect(await callHttp(gateway.url, 'POST', path, { apiKey })).toMatchObject(
      {
        status: 400,
        body: { code: 'validation_failed', status: 400 },
      },
    );
  });

  it('wakes the delivery worker once the delivery is due', async ({
    mongo,
  }) => {
    const onWebhookDeliveryDue = vi.fn();
    await using served = await startTestGateway(mongo, {
      deps: { onWebhookDeliveryDue },
    });
    const webhook = await createWebhook(served.url, ADMIN_API_KEY);
    await served.db
      .collection<WebhookDeliveryDocument>('webhook_deliveries')
      .insertOne(delivery(webhook.id, 'whd_again', new Date()));
    expect(onWebhookDeliveryDue).not.toHaveBeenCalled();

    const path = `/v1/webhooks/${webhook.id}/deliveries/whd_again/retry`;
    expect(
      await callHttp(served.url, 'POST', path, { apiKey: ADMIN_API_KEY }),
    ).toMatchObject({
      status: 202,
    });
    expect(onWebhookDeliveryDue).toHaveBeenCalledTimes(1);
    const missing = `/v1/webhooks/${webhook.id}/deliveries/whd_missing/retry`;
    expect(
      await callHttp(served.url, 'POST', missing, { apiKey: ADMIN_API_KEY }),
    ).toMatchObject({
      status: 404,
    });
    expect(onWebhookDeliveryDue).toHaveBeenCalledTimes(1);
  });
});
