import { randomUUID } from 'node:crypto';
import type {
  CreatedAccount,
  CreatedApiKey,
  CreatedWebhook,
} from '@petstore/contract';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import type {
  WebhookDeliveryDocument,
  WebhookDocument,
} from './database/collections.js';
import {
  it as gatewayIt,
  signUp,
  startTestGateway,
  type TestGateway,
} from './test-support/gateway-harness.js';

// Webhooks in these tests point at a loopback address, which the deployment must allow.
const it = gatewayIt.extend<{ gateway: TestGateway }>({
  gateway: async ({ mongo }, use) => {
    await using gateway = await startTestGateway(mongo, {
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    await use(gateway);
  },
});

const HOOK_URL = 'http://127.0.0.1:9/hook';

function post<Body>(
  gateway: TestGateway,
  path: string,
  key: string,
  { apiKey, body }: { apiKey?: string; body?: unknown } = {},
): Promise<HttpAnswer<Body>> {
  return callHttp<Body>(gateway.url, 'POST', path, {
    apiKey,
    body,
    headers: { 'idempotency-key': key },
  });
}

const replayed = (answer: HttpAnswer) =>
  answer.headers.get('idempotent-replayed');

function count(gateway: TestGateway, collection: string, filter: object = {}) {
  return gateway.db.collection(collection).countDocuments(filter);
}

describe('Idempotency-Key on POST /v1/accounts/me/keys', () => {
  it('answers a retry with the same key, shown again, and makes no other', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const first = await post<CreatedApiKey>(
      gateway,
      '/v1/accounts/me/keys',
      key,
      { apiKey },
    );
    const retry = await post<CreatedApiKey>(
      gateway,
      '/v1/accounts/me/keys',
      key,
      { apiKey },
    );

    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(replayed(retry)).toBe('true');
    expect(await count(gateway, 'api_keys', { accountId })).toBe(2);
    // The record keeps the key sealed, as it keeps webhook secrets.
    const record = await gateway.db
      .collection<{ _id: string }>('idempotency_keys')
      .findOne({ _id: `${accountId}:${key}` });
    expect(JSON.stringify(record)).not.toContain(first.body.apiKey);
  });

  it('makes one key of 8 concurrent requests with one key', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post<CreatedApiKey>(gateway, '/v1/accounts/me/keys', key, { apiKey }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await count(gateway, 'api_keys', { accountId })).toBe(2);
  });

  it('keeps the keys of different accounts apart', async ({ gateway }) => {
    const jane = await signUp(gateway.url);
    const john = await signUp(gateway.url);
    const key = randomUUID();
    const forJane = await post<CreatedApiKey>(
      gateway,
      '/v1/accounts/me/keys',
      key,
      jane,
    );
    const forJohn = await post<CreatedApiKey>(
      gateway,
      '/v1/accounts/me/keys',
      key,
      john,
    );
    expect(forJohn.status).toBe(201);
    expect(replayed(forJohn)).toBeNull();
    expect(forJohn.body.id).not.toBe(forJane.body.id);
  });
});

describe('Idempotency-Key on POST /v1/webhooks', () => {
  const body = { url: HOOK_URL, events: ['order.created'] };

  it('answers a retry with the first webhook, secret included, and makes no other', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const first = await post<CreatedWebhook>(gateway, '/v1/webhooks', key, {
      apiKey,
      body,
    });
    const retry = await post<CreatedWebhook>(gateway, '/v1/webhooks', key, {
      apiKey,
      body,
    });

    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(replayed(retry)).toBe('true');
    expect(await count(gateway, 'webhooks', { accountId })).toBe(1);
  });

  it('returns 422 idempotency_key_reused for another body, or for another operation', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    await post(gateway, '/v1/webhooks', key, { apiKey, body });
    const other = { ...body, description: 'another' };
    const reused = await post(gateway, '/v1/webhooks', key, {
      apiKey,
      body: other,
    });
    expect(reused).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused', status: 422 },
    });
    const elsewhere = await post(gateway, '/v1/accounts/me/keys', key, {
      apiKey,
    });
    expect(elsewhere).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
    expect(await count(gateway, 'webhooks', { accountId })).toBe(1);
    expect(await count(gateway, 'api_keys', { accountId })).toBe(1);
  });

  it('makes one webhook of 8 concurrent requests with one key', async ({
    gateway,
  }) => {
    const { accountId, apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post<CreatedWebhook>(gateway, '/v1/webhooks', key, { apiKey, body }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await count(gateway, 'webhooks', { accountId })).toBe(1);
  });

  it('leaves the key free after a 403', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const adminEvents = { url: HOOK_URL, events: ['inventory.updated'] };
    const forbidden = await post(gateway, '/v1/webhooks', key, {
      apiKey,
      body: adminEvents,
    });
    expect(forbidden.status).toBe(403);
    expect(
      (await post(gateway, '/v1/webhooks', key, { apiKey, body })).status,
    ).toBe(201);
  });
});

describe('Idempotency-Key on rotating a secret and retrying a delivery', () => {
  it('rotates once per key: a retry answers the same secret', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const body = { url: HOOK_URL, events: ['order.created'] };
    const { body: webhook } = await post<CreatedWebhook>(
      gateway,
      '/v1/webhooks',
      randomUUID(),
      {
        apiKey,
        body,
      },
    );
    const path = `/v1/webhooks/${webhook.id}/secret`;
    const key = randomUUID();
    const first = await post<{ secret: string }>(gateway, path, key, {
      apiKey,
    });
    const retry = await post<{ secret: string }>(gateway, path, key, {
      apiKey,
    });

    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(replayed(retry)).toBe('true');
    const stored = await gateway.db
      .collection<WebhookDocument>('webhooks')
      .findOne({ _id: webhook.id });
    expect(stored?.secrets).toHaveLength(2);

    const { body: other } = await post<CreatedWebhook>(
      gateway,
      '/v1/webhooks',
      randomUUID(),
      {
        apiKey,
        body,
      },
    );
    const elsewhere = await post(
      gateway,
      `/v1/webhooks/${other.id}/secret`,
      key,
      { apiKey },
    );
    expect(elsewhere).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
  });

  it('remembers a 404 for a webhook that does not exist', async ({
    gateway,
  }) => {
    const { apiKey } = await signUp(gateway.url);
    const key = randomUUID();
    const path = '/v1/webhooks/wh_00000000000000000000/secret';
    const missing = await post(gateway, path, key, { apiKey });
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const again = await post(gateway, path, key, { apiKey });
    expect(again).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(replayed(again)).toBe('true');
  });

  it('answers a retried retry with the first 202', async ({ gateway }) => {
    const { apiKey } = await signUp(gateway.url);
    const body = { url: HOOK_URL, events: ['order.created'] };
    const { body: webhook } = await post<CreatedWebhook>(
      gateway,
      '/v1/webhooks',
      randomUUID(),
      {
        apiKey,
        body,
      },
    );
    const createdAt = new Date(Date.now() - 60_000);
    await gateway.db
      .collection<WebhookDeliveryDocument>('webhook_deliveries')
      .insertOne({
        _id: 'whd_gaveUp',
        webhookId: webhook.id,
        eventId: 'evt_gaveUp',
        type: 'order.created',
        eventAt: createdAt,
        data: {},
        status: 'failed',
        attempts: 3,
        lastStatusCode: 500,
        lastError: null,
        nextAttemptAt: null,
        createdAt,
      });
    const path = `/v1/webhooks/${webhook.id}/deliveries/whd_gaveUp/retry`;
    const key = randomUUID();
    const first = await post(gateway, path, key, { apiKey });
    const retry = await post(gateway, path, key, { apiKey });
    expect(first.status).toBe(202);
    expect(retry).toMatchObject({ status: 202, body: first.body });
    expect(replayed(retry)).toBe('true');
  });
});

describe('Idempotency-Key on POST /v1/accounts, kept per client address', () => {
  it('answers a retry with the first account and its API key, and makes no other', async ({
    gateway,
  }) => {
    const key = randomUUID();
    const body = { email: `${key}@example.com` };
    const first = await post<CreatedAccount>(gateway, '/v1/accounts', key, {
      body,
    });
    const retry = await post<CreatedAccount>(gateway, '/v1/accounts', key, {
      body,
    });

    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(replayed(retry)).toBe('true');
    expect(await count(gateway, 'accounts', { email: body.email })).toBe(1);

    const other = await post(gateway, '/v1/accounts', key, {
      body: { email: `2${body.email}` },
    });
    expect(other).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
  });

  it('makes one account of 8 concurrent sign-ups with one key', async ({
    gateway,
  }) => {
    const key = randomUUID();
    const body = { email: `${key}@example.com` };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post<CreatedAccount>(gateway, '/v1/accounts', key, { body }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((answer) => answer.body.apiKey)).size).toBe(1);
  });
});
