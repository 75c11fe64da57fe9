import { testInternalToken } from '@petstore/testkit';
import type { ServerResponse } from 'node:http';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { startFakeService } from '../test-support/fake-service.js';
import { it, startTestGateway } from '../test-support/gateway-harness.js';
import {
  anEvent,
  secretsKey,
  seedWebhook,
} from '../test-support/webhook-fixtures.js';
import { gatewayCollections } from '../database/collections.js';

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${url}/internal/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('POST /internal/events', () => {
  it('answers 401 without the internal token, before reading the body', async ({
    gateway,
  }) => {
    const events = [anEvent()];
    const refused: Record<string, string>[] = [
      {},
      { 'x-internal-token': `${testInternalToken}x` },
    ];
    for (const headers of refused) {
      const answer = await post(gateway.url, { events }, headers);
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({
        code: 'unauthorized',
        status: 401,
      });
    }
    expect((await post(gateway.url, { nonsense: true })).status).toBe(401);
    expect(
      await gatewayCollections(gateway.db).deliveries.countDocuments(),
    ).toBe(0);
  });

  it('records events once, and the gateway delivers them', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_SECRETS_KEY: secretsKey.toString('base64'),
        // Only the kick after recording gets the event delivered in time.
        WEBHOOK_POLL_MS: '600000',
      },
    });
    const receiver = await startFakeService((_request, res: ServerResponse) => {
      res.writeHead(200).end();
    });
    onTestFinished(() => receiver.close());
    await seedWebhook(gateway.db, { url: receiver.url });
    const token = { 'x-internal-token': testInternalToken };
    const events = [anEvent(), anEvent()];

    const answer = await post(gateway.url, { events }, token);
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ recorded: 2 });
    expect(await (await post(gateway.url, { events }, token)).json()).toEqual({
      recorded: 0,
    });
    await vi.waitFor(
      () => {
        expect(receiver.received).toHaveLength(2);
      },
      { timeout: 20_000 },
    );
    expect(
      receiver.received.map(({ headers }) => headers['webhook-id']),
    ).toEqual(events.map(({ id }) => id));

    const invalid = await post(gateway.url, { events: [] }, token);
    expect(invalid.status).toBe(400);
  });
});
