import { randomUUID } from 'node:crypto';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/catalogue.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { unthrottled, type SignedUp } from '../support/test-stack.js';

// A webhook may point at a loopback address; no event reaches it in this file.
const stack = testStackForFile({
  ...unthrottled,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
});

let adminKey: string;
let customer: SignedUp;
beforeAll(async () => {
  adminKey = stack.stack.adminApiKey;
  customer = await stack.signUp();
});

type Answer = HttpAnswer<{ id: string | number; code?: string }>;

function post(
  path: string,
  apiKey: string,
  key: string,
  body?: unknown,
): Promise<Answer> {
  return callHttp(stack.url, 'POST', path, {
    apiKey,
    body,
    headers: { 'idempotency-key': key },
  });
}

/**
 * The first answer, then 5 copies of it at once, each answered the same; then the same key with
 * another body (or, for an operation without one, on another path) is 422.
 */
async function expectOnce(
  path: string,
  apiKey: string,
  body: unknown,
  other: { path?: string; body?: unknown },
) {
  const key = randomUUID();
  const first = await post(path, apiKey, key, body);
  const copies = await Promise.all(
    Array.from({ length: 5 }, () => post(path, apiKey, key, body)),
  );
  expect(first.status).toBeLessThan(300);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  for (const copy of copies) {
    expect(copy).toMatchObject({ status: first.status, body: first.body });
    expect(copy.headers.get('idempotent-replayed')).toBe('true');
  }
  const reused = await post(other.path ?? path, apiKey, key, other.body);
  expect(reused).toMatchObject({
    status: 422,
    body: { code: 'idempotency_key_reused', status: 422 },
  });
  return first;
}

describe('Idempotency-Key through the gateway', () => {
  it('adds one category and one pet per key, as the admin', async () => {
    const name = `Idempotent ${randomUUID()}`;
    const category = await expectOnce(
      '/v1/categories',
      adminKey,
      { name },
      { body: { name: `${name}!` } },
    );
    const categoryId = category.body.id;
    const pet = { name: 'Rex', categoryId };
    const added = await expectOnce('/v1/pets', adminKey, pet, {
      body: { ...pet, name: 'Fido' },
    });
    expect(added.headers.get('location')).toBe(`/v2/pets/${added.body.id}`);

    const listed = ok(
      await stack.admin.pets.listPets({
        query: { categoryId: String(categoryId), limit: 100 },
      }),
      200,
    );
    expect(listed.body.map((each) => each.name)).toEqual(['Rex']);
  });

  it('creates one API key and one webhook per key, as a customer', async () => {
    const { apiKey, api } = customer;
    const hook = { url: 'http://127.0.0.1:9/hook', events: ['order.created'] };
    await expectOnce('/v1/accounts/me/keys', apiKey, undefined, {
      path: '/v1/webhooks',
      body: hook,
    });
    const keys = ok(
      await api.accounts.listKeys({ query: { limit: 100 } }),
      200,
    );
    expect(keys.body).toHaveLength(2);

    const webhook = await expectOnce('/v1/webhooks', apiKey, hook, {
      body: { ...hook, description: 'another' },
    });
    const webhooks = ok(
      await api.webhooks.listWebhooks({ query: { limit: 100 } }),
      200,
    );
    expect(webhooks.body.map((each) => each.id)).toEqual([webhook.body.id]);
  });

  it('keys the caller’s account, not the one a client claims in the gateway’s headers', async () => {
    const key = randomUUID();
    const name = `Claimed ${key}`;
    const claimed = { 'x-account-id': 'acct_someone', 'idempotency-key': key };
    const first = await callHttp(stack.url, 'POST', '/v1/categories', {
      apiKey: adminKey,
      body: { name },
      headers: claimed,
    });
    expect(first.status).toBe(201);
    const again = await post('/v1/categories', adminKey, key, { name });
    expect(again).toMatchObject({ status: 201, body: first.body });
  });
});
