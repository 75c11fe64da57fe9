import { contract, contractOperations } from '@petstore/contract';
import type { Document } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { allDocuments } from '../support/collections.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { expectError } from '../support/error-bodies.js';
import { fillPath } from '../support/fill-path.js';
import { rawRequest } from '../support/raw-http.js';
import { unthrottled, type SignedUp } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';

// Who a request is comes from its API key alone. Whatever identity, trust or address headers a
// client adds, the gateway replaces them with its own before anything reaches a service.

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

let db: DatabaseReader;
let alice: SignedUp;
let bob: SignedUp;
let petId: number;

const api = testStackForFile({
  ...unthrottled,
  // Practically no refill of an address's sign-ups: the test of forwarded addresses spends
  // them all, then tries for more.
  SIGNUP_RATE_LIMIT_BURST: '5',
  SIGNUP_RATE_LIMIT_PER_MINUTE: '0.001',
});

beforeAll(async () => {
  db = await api.databases();
  alice = await api.signUp();
  bob = await api.signUp();
  ({ petId } = await stockedPet(api.admin, 1_000));
});

/** Whether an inventory entry still holds stock for an order. */
const held = (item: Document) => Number(item.heldCount) > 0;

/**
 * Bob's request with a JSON body, written byte for byte: `request` is the method and path, `lines`
 * header lines exactly as given (one should be a `Connection` line that closes).
 */
function rawJsonAsBob(request: string, lines: string[], json: unknown) {
  const body = JSON.stringify(json);
  return rawRequest(
    api.url,
    [
      `${request} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: Bearer ${bob.apiKey}`,
      ...lines,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n'),
  );
}

/** Header sets with which Bob claims to be Alice, the admin, or the gateway itself. */
function spoofedHeaders(): Record<string, string>[] {
  return [
    { 'x-account-id': alice.accountId },
    { 'x-account-id': alice.accountId, 'x-account-role': 'admin' },
    { 'x-account-id': 'acct_admin', 'x-account-role': 'admin' },
    // The real internal token, were it to leak, still names no account at the gateway.
    {
      'x-account-id': alice.accountId,
      'x-account-role': 'admin',
      'x-internal-token': api.stack.internalToken,
    },
    { x_account_id: alice.accountId, x_account_role: 'admin' },
    {
      forwarded: 'for=10.0.0.1;by=gateway;proto=https',
      'x-forwarded-for': '10.0.0.1, 127.0.0.1',
      'x-real-ip': '10.0.0.1',
      'x-forwarded-user': alice.accountId,
      'x-account-role': 'admin',
    },
  ];
}

async function storedOrder(orderId: number) {
  return db
    .db(databaseNames.store)
    .collection('orders')
    .findOne({ _id: orderId as never });
}

describe('identity headers sent by a client', () => {
  it('place the order as the key’s account, whoever the headers name', async () => {
    for (const headers of spoofedHeaders()) {
      const answer = await callHttp(api.url, 'POST', '/v1/store/orders', {
        apiKey: bob.apiKey,
        body: { petId, quantity: 1 },
        headers,
      });
      expect(answer.status).toBe(201);
      const orderId = (answer.body as { id: number }).id;
      const owner = (await storedOrder(orderId))?.ownerId as unknown;
      expect({ headers, owner }).toEqual({
        headers,
        owner: bob.accountId,
      });
      expectError(
        await alice.api.orders.getOrder({
          params: { orderId: String(orderId) },
        }),
        'not_found',
      );
    }
  });

  it('show the key’s account its own data only', async () => {
    const aliceOrder = ok(
      await alice.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    );
    const aliceOrderId = aliceOrder.body.id ?? -1;
    const bobsOrderIds = (
      await db
        .db(databaseNames.store)
        .collection('orders')
        .find({ ownerId: bob.accountId, cancelled: false })
        .toArray()
    ).map(({ _id }) => _id as unknown as number);
    for (const headers of spoofedHeaders()) {
      const as = (path: string) =>
        callHttp(api.url, 'GET', path, { apiKey: bob.apiKey, headers });

      expect(await as('/v1/accounts/me')).toMatchObject({
        status: 200,
        body: { id: bob.accountId, role: 'customer' },
      });
      const orders = await as('/v1/store/orders?limit=100');
      expect(orders.status).toBe(200);
      expect(
        (orders.body as { id: number }[]).map(({ id }) => id).sort(),
      ).toEqual([...bobsOrderIds].sort());
      expectError(await as(`/v1/store/orders/${aliceOrderId}`), 'not_found');
      const keys = await as('/v1/accounts/me/keys');
      const stored = await db
        .db(databaseNames.gateway)
        .collection('api_keys')
        .find({ accountId: bob.accountId, revokedAt: null })
        .toArray();
      expect(
        (keys.body as { id: string }[]).map(({ id }) => id).sort(),
      ).toEqual(stored.map(({ _id }) => String(_id)).sort());
    }
  });

  it('still meet 403 forbidden on every admin-only operation, which changes nothing', async () => {
    const orderId = ok(
      await bob.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    ).body.id;
    const ids = { petId, categoryId: 1, orderId: orderId ?? -1 };
    // The order's stock hold is let go, its status push sent and its events handed over just
    // after the order is answered: wait for them all.
    await expect
      .poll(async () =>
        (await allDocuments(db, databaseNames.store, 'inventory')).map(held),
      )
      .not.toContain(true);
    await expect.poll(() => db.pendingWork()).toEqual({ pushes: 0, events: 0 });
    const before = {
      pets: await db.snapshot(databaseNames.pets),
      orders: await allDocuments(db, databaseNames.store, 'orders'),
      inventory: await allDocuments(db, databaseNames.store, 'inventory'),
    };
    const adminRoutes = contractOperations(contract.v2).filter(
      ({ metadata }) => metadata.role === 'admin',
    );
    expect(adminRoutes.length).toBeGreaterThan(0);
    for (const headers of spoofedHeaders()) {
      for (const { name, route } of adminRoutes) {
        const json =
          route.method === 'DELETE' ? undefined : adminBody(name, ids);
        const answer = await callHttp(
          api.url,
          route.method,
          fillPath(route.path, ids),
          {
            apiKey: bob.apiKey,
            body: json,
            headers,
          },
        );
        expect({ route: name, headers, status: answer.status }).toEqual({
          route: name,
          headers,
          status: 403,
        });
        expectError(answer, 'forbidden');
      }
    }
    expect({
      pets: await db.snapshot(databaseNames.pets),
      orders: await allDocuments(db, databaseNames.store, 'orders'),
      inventory: await allDocuments(db, databaseNames.store, 'inventory'),
    }).toEqual(before);
  });

  it('send a message as the key’s account', async () => {
    for (const headers of spoofedHeaders()) {
      const answer = await callHttp(api.url, 'POST', '/v1/messages', {
        apiKey: bob.apiKey,
        body: { message: 'who am I?' },
        headers,
      });
      expect(answer.status).toBe(202);
      const messageId = (answer.body as { id: string }).id;
      const stored = await db
        .db(databaseNames.gateway)
        .collection('messages')
        .findOne({ _id: messageId as never });
      expect(stored?.accountId).toBe(bob.accountId);
      expectError(
        await alice.api.messages.getMessage({ params: { messageId } }),
        'not_found',
      );
    }
  });
});

/** A 400 validation_failed naming each of `fields` as an unknown body property. */
function expectRefusedNaming(
  answer: { status: number; body: unknown },
  fields: string[],
) {
  expect(answer).toMatchObject({
    status: 400,
    body: { code: 'validation_failed' },
  });
  const { details } = answer.body as { details: { path: string }[] };
  expect(details.map(({ path }) => path).sort()).toEqual(
    fields.map((field) => `body.${field}`).sort(),
  );
}

// Input is strict: a body naming an identity is refused whole, and writes nothing.
describe('identity sent in a body', () => {
  it('cannot make an admin, or name the account, at sign-up', async () => {
    const email = `mass.${Date.now()}@example.com`;
    const answer = await callHttp(api.url, 'POST', '/v1/accounts', {
      body: {
        email,
        role: 'admin',
        id: 'acct_admin',
        _id: 'acct_admin',
        accountId: alice.accountId,
        apiKey: api.stack.adminApiKey,
      },
    });
    expectRefusedNaming(answer, ['role', 'id', '_id', 'accountId', 'apiKey']);
    const accounts = db.db(databaseNames.gateway).collection('accounts');
    expect(await accounts.countDocuments({ email })).toBe(0);
    const admin = await accounts.findOne({ _id: 'acct_admin' as never });
    expect(admin?.email).toBe('admin@petstore.invalid');
  });

  it('cannot place an order for another account, or a complete one', async () => {
    const orders = db.db(databaseNames.store).collection('orders');
    const before = await orders.countDocuments();
    const answer = await callHttp(api.url, 'POST', '/v1/store/orders', {
      apiKey: bob.apiKey,
      body: {
        petId,
        quantity: 1,
        ownerId: alice.accountId,
        accountId: alice.accountId,
        id: 1,
        _id: 1,
        complete: true,
        cancelled: true,
      },
    });
    expectRefusedNaming(answer, [
      'ownerId',
      'accountId',
      'id',
      '_id',
      'complete',
      'cancelled',
    ]);
    expect(await orders.countDocuments()).toBe(before);
  });

  it('cannot send a message as another account, or one already delivered', async () => {
    const messages = db.db(databaseNames.gateway).collection('messages');
    const answer = await callHttp(api.url, 'POST', '/v1/messages', {
      apiKey: bob.apiKey,
      body: {
        message: 'mine',
        accountId: alice.accountId,
        status: 'delivered',
        id: 'msg_chosen',
      },
    });
    expectRefusedNaming(answer, ['accountId', 'status', 'id']);
    expect(await messages.countDocuments({ _id: 'msg_chosen' as never })).toBe(
      0,
    );
  });
});

describe('the address a client claims to use', () => {
  it('changes neither the document’s servers nor the addresses the API answers with', async () => {
    const spoofed = [
      'Host: evil.example',
      'X-Forwarded-Host: evil.example',
      'X-Forwarded-Proto: https',
      'Forwarded: host=evil.example;proto=https',
    ];
    const request = (head: string, body = '') =>
      rawRequest(
        api.url,
        [head, ...spoofed, 'Connection: close', '', body].join('\r\n'),
      );
    const document = await request('GET /openapi.json HTTP/1.1');
    expect(document.status).toBe(200);
    expect(document.body).not.toContain('evil.example');
    expect(document.body).toContain(api.url);

    const order = await request(
      [
        'POST /v1/store/orders HTTP/1.1',
        `Authorization: Bearer ${bob.apiKey}`,
        'Content-Type: application/json',
        `Content-Length: ${JSON.stringify({ petId, quantity: 1 }).length}`,
      ].join('\r\n'),
      JSON.stringify({ petId, quantity: 1 }),
    );
    expect(order.status).toBe(201);
    expect(order.headers.get('location')).toMatch(/^\/v2\/store\/orders\/\d+$/);

    const page = await request(
      [
        'GET /v1/store/orders?limit=1 HTTP/1.1',
        `Authorization: Bearer ${bob.apiKey}`,
      ].join('\r\n'),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('link')).toMatch(
      /^<\/v1\/store\/orders\?[^>]*>; rel="next"$/,
    );
    expect(JSON.stringify([...page.headers])).not.toContain('evil.example');
  });
});

/** A body each admin-only operation would accept. */
function adminBody(
  name: string,
  ids: { petId: number; categoryId: number },
): unknown {
  const bodies: Record<string, unknown> = {
    createPet: { name: 'Bella', categoryId: ids.categoryId },
    replacePet: { name: 'Bella', categoryId: ids.categoryId, status: 'sold' },
    updatePet: { name: 'Bella' },
    createCategory: { name: 'Spoofers' },
    replaceCategory: { name: 'Spoofers' },
    updateOrder: { complete: true },
    setInventory: { quantity: 0 },
  };
  if (!(name in bodies))
    throw new Error(`no body for the admin-only operation ${name}`);
  return bodies[name];
}

describe('the request id a client sends', () => {
  const garbage = [
    'abc%0D%0ASet-Cookie:%20stolen=1',
    'abc\tdef',
    'an id with spaces',
    '../../etc/passwd',
    '{"level":60,"msg":"forged"}',
    'ÿþé',
    'x'.repeat(129),
    'y'.repeat(10_000),
  ];

  it('is replaced by a fresh one when it is not sane, and the services see only the gateway’s', async () => {
    for (const requestId of garbage) {
      const res = await callHttp(api.url, 'GET', '/v1/store/orders', {
        apiKey: bob.apiKey,
        headers: { 'x-request-id': requestId },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toBeNull();
      const answered = res.headers.get('x-request-id') ?? '';
      expect(answered).toMatch(SANE_REQUEST_ID);
      expect(answered).not.toBe(requestId);
      // The store logged the request under the gateway's id.
      await expect
        .poll(
          () =>
            api.logs.filter(
              (line) =>
                line.includes('"name":"store"') && line.includes(answered),
            ).length,
        )
        .toBeGreaterThan(0);
    }
    for (const requestId of garbage) {
      expect(api.logs.filter((line) => line.includes(requestId))).toEqual([]);
    }
    expect(api.logs.filter((line) => line.includes('forged'))).toEqual([]);
  });

  it('carries a sane one through to the error body and the service', async () => {
    const answer = await callHttp(api.url, 'GET', '/v1/store/orders/999999', {
      apiKey: bob.apiKey,
      headers: { 'x-request-id': 'client-chosen.id:42' },
    });
    expectError(answer, 'not_found');
    expect(answer.headers.get('x-request-id')).toBe('client-chosen.id:42');
  });

  it('cannot smuggle a header with a bare CR, LF or NUL: the request is refused whole', async () => {
    const before = await allDocuments(db, databaseNames.store, 'orders');
    for (const separator of ['\r', '\n', '\0']) {
      const answer = await rawJsonAsBob(
        'POST /v1/store/orders',
        [
          `X-Request-Id: abc${separator}X-Account-Id: ${alice.accountId}`,
          'Connection: close',
        ],
        { petId, quantity: 1 },
      );
      expect({ separator, status: answer.status }).toEqual({
        separator,
        status: 400,
      });
      expect(JSON.stringify([...answer.headers])).not.toMatch(/x-account-id/i);
    }
    expect(await allDocuments(db, databaseNames.store, 'orders')).toEqual(
      before,
    );
  });

  it('cannot make an admin of a customer with a CRLF: the line it adds is one more ignored header', async () => {
    const orderId = ok(
      await bob.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    ).body.id;
    const answer = await rawJsonAsBob(
      `PATCH /v1/store/orders/${orderId}`,
      [
        `X-Request-Id: abc\r\nX-Account-Role: admin\r\nX-Internal-Token: ${api.stack.internalToken}`,
        'Connection: close',
      ],
      { complete: true },
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'forbidden',
      status: 403,
    });
    expect(await storedOrder(orderId ?? -1)).toMatchObject({ complete: false });
  });
});

describe('a Connection header naming the gateway’s headers', () => {
  it('cannot strip the identity the gateway adds: the order is still the key’s account’s', async () => {
    const answer = await rawJsonAsBob(
      'POST /v1/store/orders',
      [
        `X-Account-Id: ${alice.accountId}`,
        'X-Account-Role: admin',
        'Connection: close, x-internal-token, x-account-id, x-account-role, x-request-id',
      ],
      { petId, quantity: 1 },
    );
    expect(answer.status).toBe(201);
    const { id } = JSON.parse(answer.body) as { id: number };
    expect(await storedOrder(id)).toMatchObject({ ownerId: bob.accountId });
  });
});

describe('forwarded client addresses', () => {
  it('do not earn more sign-ups: the limit stays on the connection’s address', async () => {
    const signUp = (headers: Record<string, string> = {}) =>
      callHttp(api.url, 'POST', '/v1/accounts', {
        body: { email: `forwarded.${Math.random()}@example.com` },
        headers,
      });
    // Spend what is left of this address's sign-ups (the bucket barely refills).
    let spent = false;
    for (let n = 0; n < 10 && !spent; n++) {
      spent = (await signUp()).status === 429;
    }
    expect(spent).toBe(true);
    // Then every sign-up is refused, however its forwarding headers name the client.
    for (let n = 1; n <= 6; n++) {
      const address = `203.0.113.${n}`;
      const answer = await signUp({
        'x-forwarded-for': address,
        forwarded: `for=${address}`,
        'x-real-ip': address,
        'x-client-ip': address,
        'true-client-ip': address,
      });
      expect({ address, status: answer.status }).toEqual({
        address,
        status: 429,
      });
      expectError(answer, 'rate_limited');
    }
  });
});
