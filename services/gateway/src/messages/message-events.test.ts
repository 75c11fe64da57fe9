import type { ServerResponse } from 'node:http';
import { WebhookEventSchema } from '@petstore/contract';
import { Webhook } from 'standardwebhooks';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { gatewayCollections } from '../database/collections.js';
import { startFakeService } from '../test-support/fake-service.js';
import {
  bearer,
  it,
  signUp,
  startTestGateway,
} from '../test-support/gateway-harness.js';
import { secretsKey, seedWebhook } from '../test-support/webhook-fixtures.js';

describe('message.delivered', () => {
  it('is delivered to the owner’s webhooks once its message is delivered', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_SECRETS_KEY: secretsKey.toString('base64'),
      },
    });
    const receiver = await startFakeService((_request, res: ServerResponse) => {
      res.writeHead(200).end();
    });
    onTestFinished(() => receiver.close());
    const owner = await signUp(gateway.url);
    const other = await signUp(gateway.url);
    const subscribe = (accountId: string) =>
      seedWebhook(gateway.db, {
        url: receiver.url,
        accountId,
        role: 'customer',
        events: ['message.delivered'],
      });
    const webhook = await subscribe(owner.accountId);
    const othersWebhook = await subscribe(other.accountId);

    const sent = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { ...bearer(owner.apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    });
    const message = (await sent.json()) as { id: string; createdAt: string };

    await vi.waitFor(
      () => {
        expect(receiver.received).toHaveLength(1);
      },
      { timeout: 20_000 },
    );
    const [{ body, headers }] = receiver.received as [
      (typeof receiver.received)[number],
    ];
    const event = WebhookEventSchema.parse(
      new Webhook(webhook.secret).verify(
        body,
        headers as Record<string, string>,
      ),
    );
    expect(event).toMatchObject({
      type: 'message.delivered',
      data: {
        id: message.id,
        message: 'hello',
        status: 'delivered',
        createdAt: message.createdAt,
      },
    });
    expect(
      await gatewayCollections(gateway.db).deliveries.countDocuments({
        webhookId: othersWebhook.id,
      }),
    ).toBe(0);
    const document = await gatewayCollections(gateway.db).messages.findOne({
      _id: message.id,
    });
    expect(document).toMatchObject({ status: 'delivered' });
  });
});
