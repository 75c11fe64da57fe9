import {
  ErrorCodeSchema,
  errorStatus,
  type ErrorCode,
} from '@petstore/contract';
import { serveHttp, type HttpHandler } from '@petstore/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  callHttp,
  readAnswer,
  type HttpAnswer,
  type HttpCallOptions,
} from '@petstore/testkit';
import { ok, petInStock } from './support/catalogue.js';
import { expectError } from './support/error-bodies.js';
import { rawJsonRequest } from './support/raw-http.js';
import { testStackForFile } from './support/stack-for-file.js';

/** How long the gateway waits for a service here: short, so that a 504 comes quickly. */
const UPSTREAM_TIMEOUT_MS = 2_000;
/** API.md's body limit. */
const BODY_LIMIT = 64 * 1024;
/** An int64 that is in range and never issued, and the first value past int64. */
const NEVER_ISSUED = '9223372036854775807';
const PAST_INT64 = '9223372036854775808';

let customer: { apiKey: string; email: string };
/** A category with a pet in it; the pet's stock went to a completed order and is now 0. */
let categoryId: number;
let soldOutPetId: number;
let completedOrderId: number;
/** A pet with stock to order from. */
let stockedPetId: number;

const api = testStackForFile({
  UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
  // GET /v1/pets/{petId} is past its sunset in this stack (410 gone); nothing else here uses it.
  GET_PET_DEPRECATED_AT: '2019-01-01T00:00:00Z',
  GET_PET_SUNSET: '2020-01-01T00:00:00Z',
  // Keys refill one token a second, so a loop of requests empties a bucket for certain.
  RATE_LIMIT_PER_SECOND: '1',
});

beforeAll(async () => {
  const email = `errors.${Date.now()}@example.com`;
  customer = { apiKey: (await api.signUp(email)).apiKey, email };
  const shopper = api.client(customer.apiKey);

  categoryId = ok(
    await api.admin.categories.createCategory({ body: { name: 'Dogs' } }),
    201,
  ).body.id;
  soldOutPetId = await petInStock(api.admin, categoryId, 1, 'Rex');
  stockedPetId = await petInStock(api.admin, categoryId, 100, 'Fido');

  const order = await shopper.orders.placeOrder({
    body: { petId: soldOutPetId, quantity: 1 },
  });
  if (order.status !== 201 || order.body.id === undefined)
    throw new Error(`order: ${order.status}`);
  completedOrderId = order.body.id;
  ok(
    await api.admin.orders.updateOrder({
      params: { orderId: String(completedOrderId) },
      body: { complete: true },
    }),
    200,
  );
});

const asCustomer = (
  method: string,
  path: string,
  options: HttpCallOptions = {},
) => callHttp(api.url, method, path, { apiKey: customer.apiKey, ...options });
const asAdmin = (method: string, path: string, options: HttpCallOptions = {}) =>
  callHttp(api.url, method, path, {
    apiKey: api.stack.adminApiKey,
    ...options,
  });
/** The customer's typed client. */
const shop = () => api.client(customer.apiKey);

/** Raw bytes on a new connection, for what `fetch` cannot send; the answer's body parsed. */
const rawJson = (bytes: string) => rawJsonRequest(api.url, bytes);

/** A JSON body of exactly `bytes` bytes: `{"message":"xxx…"}`. */
function jsonOfSize(bytes: number, field = 'message'): string {
  const frame = JSON.stringify({ [field]: '' }).length;
  return JSON.stringify({ [field]: 'x'.repeat(bytes - frame) });
}

interface ErrorCase {
  code: ErrorCode;
  when: string;
  /** Raw `fetch` where the test is about bytes on the wire, the typed client elsewhere. */
  request: () => Promise<HttpAnswer>;
  /** What the answer carries beyond the Error shape and the headers every answer has. */
  also?: (answer: HttpAnswer) => void;
}

/** A request that must fail with `code`, and nothing more to check. */
const failing = (
  code: ErrorCode,
  when: string,
  request: () => Promise<HttpAnswer>,
): ErrorCase => ({
  code,
  when,
  request,
});

const unauthorized = (when: string, authorization?: string): ErrorCase => ({
  code: 'unauthorized',
  when,
  request: () =>
    callHttp(api.url, 'GET', '/v1/pets', {
      headers: authorization === undefined ? {} : { authorization },
    }),
  also: ({ headers }) => {
    expect(headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
  },
});

const cases: ErrorCase[] = [
  {
    code: 'validation_failed',
    when: 'a body fails its schema',
    request: () =>
      shop().orders.placeOrder({ body: { petId: stockedPetId, quantity: 0 } }),
    also: ({ body }) => {
      expect(body).toMatchObject({
        details: [
          { path: 'body.quantity', message: expect.any(String) as string },
        ],
      });
    },
  },
  failing('validation_failed', 'a path id is negative', () =>
    shop().categories.getCategory({ params: { categoryId: '-1' } }),
  ),
  failing('validation_failed', 'a path id is past int64', () =>
    shop().orders.getOrder({ params: { orderId: PAST_INT64 } }),
  ),
  failing('validation_failed', 'a query value is out of range (limit=0)', () =>
    shop().pets.listPets({ query: { limit: 0 } }),
  ),
  failing('validation_failed', 'a body carries a $-prefixed key', () =>
    asAdmin('POST', '/v1/categories', { body: { name: { $gt: '' } } }),
  ),
  failing('validation_failed', 'a message id is not one', () =>
    asCustomer('GET', '/v1/messages/not-an-id'),
  ),
  failing('invalid_json', 'a proxied body is not JSON', () =>
    asAdmin('POST', '/v1/categories', { body: '{"name": ' }),
  ),
  failing('invalid_json', 'a body for the gateway itself is not JSON', () =>
    asCustomer('POST', '/v1/messages', { body: "{'message': 'hi'}" }),
  ),
  failing('unsupported_content_type', 'a body is sent as text/plain', () =>
    asCustomer('POST', '/v1/messages', {
      body: 'Hello, Petstore!',
      headers: { 'content-type': 'text/plain' },
    }),
  ),
  failing('unsupported_content_type', 'a proxied body is sent as a form', () =>
    asCustomer('POST', '/v1/store/orders', {
      body: `petId=${stockedPetId}&quantity=1`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  ),
  unauthorized('no Authorization header is sent'),
  unauthorized(
    'the scheme is Basic',
    `Basic ${Buffer.from('jane:secret').toString('base64')}`,
  ),
  unauthorized('Bearer comes with no token', 'Bearer '),
  unauthorized('the key is malformed', 'Bearer not-a-key'),
  unauthorized('the key was never issued', `Bearer psk_${'A'.repeat(40)}`),
  failing('forbidden', 'a customer writes the catalogue', () =>
    shop().categories.createCategory({ body: { name: 'Cats' } }),
  ),
  failing('not_found', 'an in-range order id was never issued', () =>
    shop().orders.getOrder({ params: { orderId: NEVER_ISSUED } }),
  ),
  failing('not_found', 'a category id was never issued', () =>
    shop().categories.getCategory({ params: { categoryId: '999999' } }),
  ),
  failing('not_found', 'a message id was never issued', () =>
    shop().messages.getMessage({
      params: { messageId: 'msg_neverIssued0000' },
    }),
  ),
  failing('route_not_found', 'no operation has the path', () =>
    asCustomer('GET', '/v1/unicorns'),
  ),
  failing('route_not_found', 'the path is outside every version', () =>
    callHttp(api.url, 'GET', '/v3/pets'),
  ),
  {
    code: 'method_not_allowed',
    when: 'a known path is asked with another method',
    request: () => asCustomer('PUT', '/v1/store/orders', { body: {} }),
    also: ({ headers }) => {
      expect(headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    },
  },
  failing('conflict', 'an email is already used, in another case', () =>
    api.client().accounts.createAccount({
      body: { email: customer.email.toUpperCase() },
    }),
  ),
  failing('conflict', 'a category name is already used, in another case', () =>
    api.admin.categories.createCategory({ body: { name: 'dOGS' } }),
  ),
  failing('insufficient_stock', 'the stock is 0', () =>
    shop().orders.placeOrder({ body: { petId: soldOutPetId, quantity: 1 } }),
  ),
  failing('insufficient_stock', 'an order asks for more than the stock', () =>
    shop().orders.placeOrder({ body: { petId: stockedPetId, quantity: 101 } }),
  ),
  failing('category_in_use', 'a category with pets is deleted', () =>
    api.admin.categories.deleteCategory({
      params: { categoryId: String(categoryId) },
    }),
  ),
  failing('order_complete', 'a complete order is cancelled', () =>
    shop().orders.cancelOrder({
      params: { orderId: String(completedOrderId) },
    }),
  ),
  {
    code: 'gone',
    when: 'the deprecated GET /v1/pets/{petId} is called after its sunset',
    request: () => asCustomer('GET', `/v1/pets/${stockedPetId}`),
    also: ({ headers }) => {
      expect(headers.get('deprecation')).toBe(
        `@${Date.parse('2019-01-01T00:00:00Z') / 1000}`,
      );
      expect(headers.get('sunset')).toBe('Wed, 01 Jan 2020 00:00:00 GMT');
      expect(headers.get('link')).toMatch(/rel="deprecation"/);
      expect(headers.get('link')).toContain(
        `</v2/pets/${stockedPetId}>; rel="successor-version"`,
      );
    },
  },
  failing(
    'payload_too_large',
    'a body for the gateway itself is 64 KiB + 1 byte',
    () =>
      asCustomer('POST', '/v1/messages', {
        body: jsonOfSize(BODY_LIMIT + 1),
        headers: { 'content-type': 'application/json' },
      }),
  ),
  failing('payload_too_large', 'a proxied body is 64 KiB + 1 byte', () =>
    asAdmin('POST', '/v1/categories', {
      body: jsonOfSize(BODY_LIMIT + 1, 'name'),
      headers: { 'content-type': 'application/json' },
    }),
  ),
  {
    code: 'payload_too_large',
    when: 'a chunked body without Content-Length grows past 64 KiB',
    request: async () =>
      readAnswer(
        await fetch(`${api.url}/v1/categories`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${api.stack.adminApiKey}`,
            'content-type': 'application/json',
          },
          body: new ReadableStream({
            start(controller) {
              controller.enqueue(
                new TextEncoder().encode(jsonOfSize(BODY_LIMIT + 1, 'name')),
              );
              controller.close();
            },
          }),
          duplex: 'half',
        }),
      ),
  },
  failing(
    'unknown_category',
    'a pet names a category that does not exist',
    () =>
      api.admin.pets.createPet({ body: { name: 'Rex', categoryId: 999999 } }),
  ),
  failing('unknown_pet', 'an order names a pet that does not exist', () =>
    shop().orders.placeOrder({ body: { petId: 999999, quantity: 1 } }),
  ),
  failing('unknown_pet', 'stock is set for a pet that does not exist', () =>
    api.admin.inventory.setInventory({
      params: { petId: '999999' },
      body: { quantity: 1 },
    }),
  ),
  failing(
    'invalid_webhook_url',
    'a webhook URL is the cloud metadata address',
    () =>
      shop().webhooks.createWebhook({
        body: {
          url: 'https://169.254.169.254/latest/meta-data/',
          events: ['order.created'],
        },
      }),
  ),
  failing('forbidden', 'a customer asks a webhook for the admins’ events', () =>
    shop().webhooks.createWebhook({
      body: {
        url: 'https://93.184.216.34/hooks',
        events: ['inventory.updated'],
      },
    }),
  ),
  {
    code: 'idempotency_key_reused',
    when: 'an Idempotency-Key comes back with another body',
    request: async () => {
      const headers = { 'idempotency-key': `reuse-${Date.now()}` };
      const first = await shop().orders.placeOrder({
        body: { petId: stockedPetId, quantity: 1 },
        headers,
      });
      expect(first.status).toBe(201);
      return shop().orders.placeOrder({
        body: { petId: stockedPetId, quantity: 2 },
        headers,
      });
    },
  },
  {
    code: 'unsupported_content_encoding',
    when: 'a body comes with a Content-Encoding',
    request: () =>
      asCustomer('POST', '/v1/messages', {
        body: '{"message": "hi"}',
        headers: {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
      }),
    also: ({ headers }) => {
      expect(headers.get('accept-encoding')).toBe('identity');
    },
  },
  failing(
    'malformed_request',
    'Node’s HTTP parser refuses the request (a method in lower case)',
    () => rawJson('get /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'),
  ),
  failing('headers_too_large', 'the request line and headers pass 16 KiB', () =>
    rawJson(
      `GET /v1/pets?cursor=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ),
  ),
  // internal_error (500) is a bug by definition: no request through the public API provokes one
  // on a correct build. service-kit's error-middleware tests cover how one is answered.
];

/** Codes reached by the tests below the table, one stack state each. */
const coveredBelow: ErrorCode[] = [
  'rate_limited',
  'service_unavailable',
  'upstream_timeout',
  'bad_gateway',
];

describe('every error, through the gateway', () => {
  for (const { code, when, request, also } of cases) {
    it(`returns ${errorStatus[code]} ${code} when ${when}`, async () => {
      const answer = await request();
      expectError(answer, code);
      also?.(answer);
    });
  }

  it('reaches every error code of API.md but internal_error and request_timeout', () => {
    const covered = new Set([
      ...cases.map(({ code }) => code),
      ...coveredBelow,
    ]);
    const missing = ErrorCodeSchema.options.filter(
      (code) => !covered.has(code),
    );
    // request_timeout takes a client silent for 10 s: security/slow-clients.e2e.test.ts.
    expect(missing).toEqual(['request_timeout', 'internal_error']);
  });

  it('accepts a body of exactly 64 KiB: it reaches the schema, which finds it too long', async () => {
    const answer = await asCustomer('POST', '/v1/messages', {
      body: jsonOfSize(BODY_LIMIT),
      headers: { 'content-type': 'application/json' },
    });
    expectError(answer, 'validation_failed');
  });

  it('repeats a sane X-Request-Id of the client in the header and the error body', async () => {
    const answer = await asCustomer('GET', `/v1/store/orders/${NEVER_ISSUED}`, {
      headers: { 'x-request-id': 'support-case-42' },
    });
    expectError(answer, 'not_found');
    expect(answer.headers.get('x-request-id')).toBe('support-case-42');
  });

  it('returns 429 rate_limited with Retry-After and RateLimit-* once a key’s bucket is empty', async () => {
    const { apiKey } = await api.signUp();
    let answer: HttpAnswer | undefined;
    // The bucket holds 200 (the default burst) and refills one a second: 260 requests are enough.
    for (let attempt = 0; attempt < 260; attempt++) {
      const res = await callHttp(api.url, 'GET', '/v1/accounts/me', { apiKey });
      if (res.status === 429) {
        answer = res;
        break;
      }
      expect(res.status).toBe(200);
    }
    if (!answer) throw new Error('never rate limited');
    expectError(answer, 'rate_limited');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(answer.headers.get('ratelimit-limit')).toBe('200');
    expect(answer.headers.get('ratelimit-remaining')).toBe('0');
    expect(
      Number(answer.headers.get('ratelimit-reset')),
    ).toBeGreaterThanOrEqual(1);
    // Another key of another account is not affected.
    expect((await asCustomer('GET', '/v1/accounts/me')).status).toBe(200);
  });
});

describe('a service that is down, slow or broken', () => {
  /** Replaces the store process with `handler` on the store's own port while `body` runs. */
  async function withStandInStore(
    handler: HttpHandler,
    body: () => Promise<void>,
  ) {
    await api.stack.store.stop();
    try {
      const standIn = await serveHttp(
        handler,
        Number(new URL(api.stack.store.url).port),
      );
      try {
        await body();
      } finally {
        await standIn.close();
      }
    } finally {
      await api.stack.store.start();
    }
  }

  const listPets = () => asCustomer('GET', '/v1/pets');
  const listInventory = () => asCustomer('GET', '/v1/store/inventory');

  it('returns 503 service_unavailable for store operations while the store is stopped, and recovers when it is back', async () => {
    await api.stack.store.stop();
    try {
      expectError(await listInventory(), 'service_unavailable');
      expectError(
        await asCustomer('POST', '/v1/store/orders', {
          body: { petId: stockedPetId, quantity: 1 },
        }),
        'service_unavailable',
      );
      expect((await listPets()).status).toBe(200);
      expect((await asCustomer('GET', '/v1/accounts/me')).status).toBe(200);
      expect((await callHttp(api.url, 'GET', '/ready')).status).toBe(200);
      const ready = await callHttp(api.url, 'GET', '/ready?deep=true');
      expectError(ready, 'service_unavailable');
      expect(ready.body).toMatchObject({
        details: [{ path: 'store', message: expect.any(String) as string }],
      });
    } finally {
      await api.stack.store.start();
    }
    // The same gateway process, never restarted, reaches the new store process.
    expect((await callHttp(api.url, 'GET', '/ready?deep=true')).status).toBe(
      200,
    );
    const back = await api.client(customer.apiKey).inventory.getInventoryItem({
      params: { petId: String(stockedPetId) },
    });
    expect(back).toMatchObject({ status: 200, body: { petId: stockedPetId } });
    expect(
      (
        await asCustomer('POST', '/v1/store/orders', {
          body: { petId: stockedPetId, quantity: 1 },
        })
      ).status,
    ).toBe(201);
  });

  it('returns 504 upstream_timeout when the store does not answer in time, answering pets meanwhile', async () => {
    await withStandInStore(
      () => undefined, // takes the request and never answers
      async () => {
        const slow = listInventory();
        expect((await listPets()).status).toBe(200);
        const answer = await slow;
        expectError(answer, 'upstream_timeout');
      },
    );
    expect((await listInventory()).status).toBe(200);
  });

  it('returns 502 bad_gateway when the store answers something that is not JSON', async () => {
    await withStandInStore(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><h1>It works!</h1>');
      },
      async () => {
        const answer = await listInventory();
        expectError(answer, 'bad_gateway');
        expect(JSON.stringify(answer.body)).not.toContain('It works');
      },
    );
    expect((await listInventory()).status).toBe(200);
  });
});
