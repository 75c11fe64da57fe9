import type { CreatedWebhook, Webhook } from '@petstore/contract';
import { describe, expect } from 'vitest';
import {
  ADMIN_API_KEY,
  it,
  signUp,
  startTestGateway,
  type TestGateway,
} from '../test-support/gateway-harness.js';
import { callHttp } from '@petstore/testkit';
import { createWebhook, PUBLIC_URL } from '../test-support/webhook-fixtures.js';
import type { WebhookDocument } from '../database/collections.js';
import { unsealSecret } from './webhook-secret.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function stored(gateway: TestGateway, webhookId: string) {
  return gateway.db
    .collection<WebhookDocument>('webhooks')
    .findOne({ _id: webhookId });
}

function withoutSecret({
  secret: _secret,
  ...webhook
}: CreatedWebhook): Webhook {
  return webhook;
}

/** Oldest first; in the same millisecond, by id (the order the lists promise). */
function inCreationOrder(webhooks: CreatedWebhook[]): Webhook[] {
  const key = (webhook: Webhook) => `${webhook.createdAt} ${webhook.id}`;
  return webhooks.map(withoutSecret).sort((a, b) => (key(a) < key(b) ? -1 : 1));
}

function error(code: string, status: number) {
  return { code, status, message: expect.any(String) as string };
}

/** Creating a webhook at `url` is 422 invalid_webhook_url, `webhook URL <why>`. */
async function expectRefusedUrl(
  baseUrl: string,
  apiKey: string,
  url: string,
  why: string,
) {
  const body = { url, events: ['order.created'] };
  expect(
    await callHttp(baseUrl, 'POST', '/v1/webhooks', { apiKey, body }),
  ).toMatchObject({
    status: 422,
    body: {
      ...error('invalid_webhook_url', 422),
      message: `webhook URL ${why}`,
    },
  });
}

describe('creating a webhook', () => {
  it('answers 201 with the secret, once; reading it back never shows it', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const created = await callHttp<CreatedWebhook>(
      gateway.url,
      'POST',
      '/v1/webhooks',
      {
        apiKey,
        body: {
          url: PUBLIC_URL,
          events: ['order.created', 'message.delivered', 'order.created'],
          description: 'Orders for the warehouse',
        },
      },
    );

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^wh_[A-Za-z0-9]{20}$/) as string,
      url: PUBLIC_URL,
      events: ['order.created', 'message.delivered'],
      description: 'Orders for the warehouse',
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) as string,
      createdAt: expect.any(String) as string,
    });
    const { id, secret } = created.body;
    const read = await callHttp(gateway.url, 'GET', `/v1/webhooks/${id}`, {
      apiKey,
    });
    expect(read).toMatchObject({
      status: 200,
      body: withoutSecret(created.body),
    });
    const listed = await callHttp(gateway.url, 'GET', '/v1/webhooks', {
      apiKey,
    });
    expect(listed).toMatchObject({
      status: 200,
      body: [withoutSecret(created.body)],
    });

    const document = await stored(gateway, id);
    expect(document).toMatchObject({
      accountId,
      role: 'customer',
      failingSince: null,
    });
    expect(document?.secrets).toEqual([
      {
        sealed: expect.any(String) as string,
        createdAt: expect.any(Date) as Date,
        expiresAt: null,
      },
    ]);
    expect(document?.secrets[0]?.sealed).not.toContain(
      secret.slice('whsec_'.length),
    );
    expect(
      unsealSecret(
        document!.secrets[0]!.sealed,
        gateway.config.webhooks.secretsKey,
      ),
    ).toBe(secret);
  });

  it('gives each webhook its own id and secret, and no description as null', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const first = await createWebhook(gateway.url, apiKey);
    const second = await createWebhook(gateway.url, apiKey);
    expect(first.id).not.toBe(second.id);
    expect(first.secret).not.toBe(second.secret);
    expect(first.description).toBeNull();
  });

  it('refuses a customer the admins’ event types with 403 forbidden; an admin may', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    for (const type of ['pet.status_changed', 'inventory.updated']) {
      const refused = await callHttp(gateway.url, 'POST', '/v1/webhooks', {
        apiKey,
        body: {
          url: PUBLIC_URL,
          events: ['order.created', type],
        },
      });
      expect(refused).toMatchObject({
        status: 403,
        body: error('forbidden', 403),
      });
    }
    expect(
      await callHttp(gateway.url, 'GET', '/v1/webhooks', { apiKey }),
    ).toMatchObject({
      body: [],
    });

    const admins = await createWebhook(gateway.url, ADMIN_API_KEY, {
      events: ['pet.status_changed', 'inventory.updated', 'order.created'],
    });
    expect(admins.events).toEqual([
      'pet.status_changed',
      'inventory.updated',
      'order.created',
    ]);
  });

  it('answers 400 validation_failed to a body that is not a new webhook', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const bodies: [string, unknown][] = [
      ['an empty body', {}],
      ['no events', { url: PUBLIC_URL, events: [] }],
      ['an unknown event type', { url: PUBLIC_URL, events: ['order.shipped'] }],
      [
        'a URL that is not one',
        { url: 'not a url', events: ['order.created'] },
      ],
      [
        'a description over 500 characters',
        {
          url: PUBLIC_URL,
          events: ['order.created'],
          description: '🐾'.repeat(501),
        },
      ],
      [
        'a URL over 2048 characters',
        { url: `${PUBLIC_URL}/${'a'.repeat(2048)}`, events: ['order.created'] },
      ],
      [
        'more than 20 event types',
        { url: PUBLIC_URL, events: Array(21).fill('order.created') },
      ],
    ];
    for (const [what, body] of bodies) {
      const answer = await callHttp(gateway.url, 'POST', '/v1/webhooks', {
        apiKey,
        body: body,
      });
      expect(answer, what).toMatchObject({
        status: 400,
        body: error('validation_failed', 400),
      });
    }
    expect(
      await callHttp(gateway.url, 'GET', '/v1/webhooks', { apiKey }),
    ).toMatchObject({
      body: [],
    });
  });

  it('needs a key', async ({ gateway }) => {
    const res = await fetch(`${gateway.url}/v1/webhooks`);
    expect(res.status).toBe(401);
  });
});

describe('webhook URLs', () => {
  it('refuses private addresses with 422 invalid_webhook_url, on creation and on a change', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    for (const url of [
      'https://127.0.0.1/hook',
      'http://127.0.0.1/hook',
      'https://10.0.0.1/',
      'http://10.0.0.1/',
      'https://[::1]/',
      'https://localhost/',
    ]) {
      const created = await callHttp(gateway.url, 'POST', '/v1/webhooks', {
        apiKey,
        body: {
          url,
          events: ['order.created'],
        },
      });
      expect(created, url).toMatchObject({
        status: 422,
        body: error('invalid_webhook_url', 422),
      });
      const patched = await callHttp(
        gateway.url,
        'PATCH',
        `/v1/webhooks/${webhook.id}`,
        {
          apiKey,
          body: {
            url,
          },
        },
      );
      expect(patched, url).toMatchObject({
        status: 422,
        body: error('invalid_webhook_url', 422),
      });
    }
    expect((await stored(gateway, webhook.id))?.url).toBe(PUBLIC_URL);
    expect(
      await callHttp(gateway.url, 'GET', '/v1/webhooks', { apiKey }),
    ).toMatchObject({
      body: [withoutSecret(webhook)],
    });
  });

  it('requires https', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    await expectRefusedUrl(
      gateway.url,
      apiKey,
      'http://93.184.216.34/hook',
      'must use https',
    );
  });

  it('accepts http and private addresses when WEBHOOK_ALLOW_PRIVATE_URLS=true', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    const { apiKey } = await signUp(gateway.url);
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://10.0.0.1/',
      'https://192.168.1.10/',
    ]) {
      expect((await createWebhook(gateway.url, apiKey, { url })).url).toBe(url);
    }
    await expectRefusedUrl(
      gateway.url,
      apiKey,
      'ftp://127.0.0.1/hook',
      'must use https or http',
    );
  });
});

describe('listing webhooks', () => {
  it('pages the caller’s webhooks oldest first, linking the next page', async ({
    gateway,
  }) => {
    const alice = await signUp(gateway.url);
    const bob = await signUp(gateway.url);
    const made: CreatedWebhook[] = [];
    for (const description of ['one', 'two', 'three']) {
      made.push(
        await createWebhook(gateway.url, alice.apiKey, { description }),
      );
    }
    await createWebhook(gateway.url, bob.apiKey);
    const expected = inCreationOrder(made);

    const first = await callHttp<Webhook[]>(
      gateway.url,
      'GET',
      '/v1/webhooks?limit=2',
      {
        apiKey: alice.apiKey,
      },
    );
    expect(first.status).toBe(200);
    expect(first.body).toEqual(expected.slice(0, 2));
    const link = /^<(\/v1\/webhooks\?limit=2&cursor=[^>]+)>; rel="next"$/.exec(
      first.headers.get('link') ?? '',
    );
    expect(link).not.toBeNull();

    const second = await callHttp<Webhook[]>(gateway.url, 'GET', link![1]!, {
      apiKey: alice.apiKey,
    });
    expect(second.body).toEqual(expected.slice(2));
    expect(second.headers.get('link')).toBeNull();
  });

  it('shows an admin every account’s webhooks', async ({ gateway }) => {
    const alice = await signUp(gateway.url);
    const bob = await signUp(gateway.url);
    const made = [
      await createWebhook(gateway.url, alice.apiKey),
      await createWebhook(gateway.url, bob.apiKey),
      await createWebhook(gateway.url, ADMIN_API_KEY),
    ];
    const listed = await callHttp<Webhook[]>(
      gateway.url,
      'GET',
      '/v1/webhooks',
      {
        apiKey: ADMIN_API_KEY,
      },
    );
    expect(listed.body).toEqual(inCreationOrder(made));
  });

  it('answers 400 validation_failed to a page size or cursor it did not give', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const forged = Buffer.from('1.wh_x;').toString('base64url');
    for (const query of [
      'limit=0',
      'limit=101',
      'cursor=nonsense',
      `cursor=${forged}`,
    ]) {
      const answer = await callHttp(
        gateway.url,
        'GET',
        `/v1/webhooks?${query}`,
        { apiKey },
      );
      expect(answer, query).toMatchObject({
        status: 400,
        body: error('validation_failed', 400),
      });
    }
  });
});

describe('another account’s webhook', () => {
  it('is 404 not_found to every operation, and left as it was', async ({
    gateway,
  }) => {
    const alice = await signUp(gateway.url);
    const bob = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, alice.apiKey);
    const before = await stored(gateway, webhook.id);
    const path = `/v1/webhooks/${webhook.id}`;
    const operations: [string, string, unknown?][] = [
      ['GET', path],
      ['PATCH', path, { enabled: false }],
      ['DELETE', path],
      ['POST', `${path}/secret`],
      ['GET', `${path}/deliveries`],
      ['POST', `${path}/deliveries/whd_0123456789abcdef/retry`],
    ];
    for (const [method, operationPath, body] of operations) {
      const answer = await callHttp(gateway.url, method, operationPath, {
        apiKey: bob.apiKey,
        body: body,
      });
      expect(answer, `${method} ${operationPath}`).toMatchObject({
        status: 404,
        body: { ...error('not_found', 404), message: 'no such webhook' },
      });
    }
    expect(await stored(gateway, webhook.id)).toEqual(before);
    expect(
      await callHttp(gateway.url, 'GET', '/v1/webhooks', {
        apiKey: bob.apiKey,
      }),
    ).toMatchObject({ body: [] });
  });

  it('is an admin’s to read, change, rotate and delete', async ({
    gateway,
  }) => {
    const alice = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, alice.apiKey);
    const path = `/v1/webhooks/${webhook.id}`;
    expect(
      await callHttp(gateway.url, 'GET', path, { apiKey: ADMIN_API_KEY }),
    ).toMatchObject({
      status: 200,
      body: withoutSecret(webhook),
    });
    expect(
      await callHttp(gateway.url, 'PATCH', path, {
        apiKey: ADMIN_API_KEY,
        body: { description: 'by an admin' },
      }),
    ).toMatchObject({ status: 200, body: { description: 'by an admin' } });
    expect(
      await callHttp(gateway.url, 'POST', `${path}/secret`, {
        apiKey: ADMIN_API_KEY,
      }),
    ).toMatchObject({
      status: 201,
    });
    expect(
      await callHttp(gateway.url, 'DELETE', path, { apiKey: ADMIN_API_KEY }),
    ).toMatchObject({
      status: 204,
    });
    expect(
      await callHttp(gateway.url, 'GET', path, { apiKey: alice.apiKey }),
    ).toMatchObject({
      status: 404,
    });
  });

  it('refuses a body, even `{}`, on a rotation, which takes none', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const path = `/v1/webhooks/${webhook.id}/secret`;
    const before = await stored(gateway, webhook.id);
    expect(
      await callHttp(gateway.url, 'POST', path, { apiKey, body: {} }),
    ).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        details: [{ path: 'body', message: 'must be absent' }],
      },
    });
    expect(await stored(gateway, webhook.id)).toEqual(before);
  });

  it('answers 400 validation_failed to an id that is not a webhook id', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    for (const id of ['whd_0123456789', 'wh_not-an-id']) {
      const answer = await callHttp(gateway.url, 'GET', `/v1/webhooks/${id}`, {
        apiKey,
      });
      expect(answer).toMatchObject({
        status: 400,
        body: error('validation_failed', 400),
      });
    }
  });
});

describe('changing a webhook', () => {
  it('changes only what the patch names, and clears the description with null', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey, {
      description: 'before',
    });
    const path = `/v1/webhooks/${webhook.id}`;

    const changed = await callHttp(gateway.url, 'PATCH', path, {
      apiKey,
      body: {
        url: 'https://93.184.216.35/other',
        events: ['order.cancelled', 'order.completed', 'order.cancelled'],
      },
    });
    expect(changed).toMatchObject({
      status: 200,
      body: {
        ...withoutSecret(webhook),
        url: 'https://93.184.216.35/other',
        events: ['order.cancelled', 'order.completed'],
        description: 'before',
      },
    });
    const cleared = await callHttp(gateway.url, 'PATCH', path, {
      apiKey,
      body: { description: null },
    });
    expect(cleared.body).toMatchObject({
      description: null,
      url: 'https://93.184.216.35/other',
    });
    expect(
      await callHttp(gateway.url, 'PATCH', path, { apiKey, body: {} }),
    ).toMatchObject({
      status: 200,
      body: cleared.body,
    });
  });

  it('turns deliveries off, and back on with the failure count restarted', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const path = `/v1/webhooks/${webhook.id}`;
    const failingSince = new Date(Date.now() - DAY_MS);
    await gateway.db
      .collection<WebhookDocument>('webhooks')
      .updateOne({ _id: webhook.id }, { $set: { failingSince } });

    const off = await callHttp(gateway.url, 'PATCH', path, {
      apiKey,
      body: { enabled: false },
    });
    expect(off.body).toMatchObject({ enabled: false });
    expect(await stored(gateway, webhook.id)).toMatchObject({
      enabled: false,
      failingSince,
    });

    const on = await callHttp(gateway.url, 'PATCH', path, {
      apiKey,
      body: { enabled: true },
    });
    expect(on.body).toMatchObject({ enabled: true });
    expect(await stored(gateway, webhook.id)).toMatchObject({
      enabled: true,
      failingSince: null,
    });
  });

  it('refuses a customer’s webhook the admins’ event types with 403 forbidden', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const answer = await callHttp(
      gateway.url,
      'PATCH',
      `/v1/webhooks/${webhook.id}`,
      {
        apiKey,
        body: {
          events: ['inventory.updated'],
        },
      },
    );
    expect(answer).toMatchObject({
      status: 403,
      body: error('forbidden', 403),
    });
    // A customer's webhook would never be told of them, whoever asks.
    const asAdmin = await callHttp(
      gateway.url,
      'PATCH',
      `/v1/webhooks/${webhook.id}`,
      {
        apiKey: ADMIN_API_KEY,
        body: {
          events: ['order.created', 'pet.status_changed'],
        },
      },
    );
    expect(asAdmin).toMatchObject({
      status: 403,
      body: error('forbidden', 403),
    });
    expect((await stored(gateway, webhook.id))?.events).toEqual([
      'order.created',
    ]);
  });

  it('answers 400 validation_failed to a patch that is not one', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const patches: [string, unknown][] = [
      ['no events', { events: [] }],
      ['enabled that is not a boolean', { enabled: 'yes' }],
      ['a URL that is not one', { url: 'hooks' }],
    ];
    for (const [what, patch] of patches) {
      const path = `/v1/webhooks/${webhook.id}`;
      const answer = await callHttp(gateway.url, 'PATCH', path, {
        apiKey,
        body: patch,
      });
      expect(answer, what).toMatchObject({
        status: 400,
        body: error('validation_failed', 400),
      });
    }
    expect(await stored(gateway, webhook.id)).toMatchObject({
      enabled: true,
      url: PUBLIC_URL,
    });
  });
});

describe('rotating a webhook’s secret', () => {
  it('answers 201 with a new secret; the previous one signs for 24 hours more', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const before = Date.now();
    const rotated = await callHttp<{ secret: string }>(
      gateway.url,
      'POST',
      `/v1/webhooks/${webhook.id}/secret`,
      { apiKey },
    );
    const afterwards = Date.now();

    expect(rotated).toMatchObject({
      status: 201,
      body: {
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) as string,
      },
    });
    expect(rotated.body.secret).not.toBe(webhook.secret);
    const { secrets } = (await stored(gateway, webhook.id))!;
    const key = gateway.config.webhooks.secretsKey;
    expect(secrets.map(({ sealed }) => unsealSecret(sealed, key))).toEqual([
      rotated.body.secret,
      webhook.secret,
    ]);
    expect(secrets[0]?.expiresAt).toBeNull();
    expect(secrets[1]?.expiresAt?.getTime()).toBeGreaterThanOrEqual(
      before + DAY_MS,
    );
    expect(secrets[1]?.expiresAt?.getTime()).toBeLessThanOrEqual(
      afterwards + DAY_MS,
    );
    const read = await callHttp(
      gateway.url,
      'GET',
      `/v1/webhooks/${webhook.id}`,
      { apiKey },
    );
    expect(read.body).toEqual(withoutSecret(webhook));
  });

  it('drops the secrets that have expired and keeps those still signing', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const path = `/v1/webhooks/${webhook.id}/secret`;
    const second = (
      await callHttp<{ secret: string }>(gateway.url, 'POST', path, { apiKey })
    ).body;
    const third = (
      await callHttp<{ secret: string }>(gateway.url, 'POST', path, { apiKey })
    ).body;
    const key = gateway.config.webhooks.secretsKey;
    const secretsOf = async () =>
      (await stored(gateway, webhook.id))!.secrets.map(
        ({ sealed, expiresAt }) => ({
          secret: unsealSecret(sealed, key),
          expiring: expiresAt !== null,
        }),
      );
    expect(await secretsOf()).toEqual([
      { secret: third.secret, expiring: false },
      { secret: second.secret, expiring: true },
      { secret: webhook.secret, expiring: true },
    ]);

    // As if a day had gone by since the first rotation.
    await gateway.db
      .collection<WebhookDocument>('webhooks')
      .updateOne(
        { _id: webhook.id },
        { $set: { 'secrets.2.expiresAt': new Date(Date.now() - 1) } },
      );
    const fourth = (
      await callHttp<{ secret: string }>(gateway.url, 'POST', path, { apiKey })
    ).body;
    expect(await secretsOf()).toEqual([
      { secret: fourth.secret, expiring: false },
      { secret: third.secret, expiring: true },
      { secret: second.secret, expiring: true },
    ]);
  });
});

describe('rotating a webhook’s secret concurrently', () => {
  it('loses none of the secrets handed out', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const path = `/v1/webhooks/${webhook.id}/secret`;
    const rotations = await Promise.all(
      [1, 2, 3, 4].map(() =>
        callHttp<{ secret: string }>(gateway.url, 'POST', path, { apiKey }),
      ),
    );
    expect(rotations.map(({ status }) => status)).toEqual([201, 201, 201, 201]);

    const { secrets } = (await stored(gateway, webhook.id))!;
    const key = gateway.config.webhooks.secretsKey;
    const handedOut = [
      webhook.secret,
      ...rotations.map(({ body }) => body.secret),
    ];
    expect(
      secrets.map(({ sealed }) => unsealSecret(sealed, key)).sort(),
    ).toEqual(handedOut.sort());
    expect(secrets.filter(({ expiresAt }) => expiresAt === null)).toHaveLength(
      1,
    );
  });
});

describe('deleting a webhook', () => {
  it('answers 204 and removes it with its deliveries', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const webhook = await createWebhook(gateway.url, apiKey);
    const kept = await createWebhook(gateway.url, apiKey);
    const deliveries = gateway.db.collection('webhook_deliveries');
    const delivery = (webhookId: string, _id: string) => ({
      _id,
      webhookId,
      eventId: 'evt_1',
      type: 'order.created',
      eventAt: new Date(),
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: new Date(Date.now() + DAY_MS),
      createdAt: new Date(),
    });
    await deliveries.insertMany([
      delivery(webhook.id, 'whd_deleted') as never,
      delivery(kept.id, 'whd_kept') as never,
    ]);

    const path = `/v1/webhooks/${webhook.id}`;
    const deleted = await fetch(`${gateway.url}${path}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(await callHttp(gateway.url, 'GET', path, { apiKey })).toMatchObject({
      status: 404,
    });
    expect(
      await callHttp(gateway.url, 'DELETE', path, { apiKey }),
    ).toMatchObject({ status: 404 });
    expect(await stored(gateway, webhook.id)).toBeNull();
    expect(
      await deliveries
        .find()
        .map((found) => found._id)
        .toArray(),
    ).toEqual(['whd_kept']);
  });
});
