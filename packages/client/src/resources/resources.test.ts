import { describe, expect, it } from 'vitest';
import type { PetstoreClient } from '../client.js';
import { errorBody, startServer } from '../test-support/test-server.js';
import { testClient } from '../test-support/test-client.js';

type Call = (client: PetstoreClient) => Promise<unknown>;

/** Each method, and the request it sends: method, URL, body. */
const calls: [string, Call, string, string, unknown?][] = [
  [
    'pets.create',
    (c) => c.pets.create({ name: 'Rex', categoryId: 1 }),
    'POST',
    '/v1/pets',
    { name: 'Rex', categoryId: 1 },
  ],
  ['pets.get', (c) => c.pets.get(1), 'GET', '/v1/pets/1'],
  [
    'pets.replace',
    (c) => c.pets.replace(1, { name: 'Rex', categoryId: 2 }),
    'PUT',
    '/v1/pets/1',
    { name: 'Rex', categoryId: 2 },
  ],
  [
    'pets.update',
    (c) => c.pets.update(1, { status: 'sold' }),
    'PATCH',
    '/v1/pets/1',
    { status: 'sold' },
  ],
  ['pets.delete', (c) => c.pets.delete(1), 'DELETE', '/v1/pets/1'],
  [
    'categories.list',
    (c) => c.categories.list({ limit: 5 }).firstPage(),
    'GET',
    '/v1/categories?limit=5',
  ],
  [
    'categories.create',
    (c) => c.categories.create({ name: 'Dogs' }),
    'POST',
    '/v1/categories',
    { name: 'Dogs' },
  ],
  ['categories.get', (c) => c.categories.get(2), 'GET', '/v1/categories/2'],
  [
    'categories.replace',
    (c) => c.categories.replace(2, { name: 'Cats' }),
    'PUT',
    '/v1/categories/2',
    { name: 'Cats' },
  ],
  ['categories.delete', (c) => c.categories.delete(2), 'DELETE', '/v1/categories/2'],
  [
    'orders.list',
    (c) => c.orders.list({ petId: 3 }).firstPage(),
    'GET',
    '/v1/store/orders?petId=3',
  ],
  ['orders.get', (c) => c.orders.get(4), 'GET', '/v1/store/orders/4'],
  [
    'orders.update',
    (c) => c.orders.update(4, { complete: true }),
    'PATCH',
    '/v1/store/orders/4',
    { complete: true },
  ],
  ['orders.cancel', (c) => c.orders.cancel(4), 'DELETE', '/v1/store/orders/4'],
  [
    'inventory.list',
    (c) => c.inventory.list({ status: 'sold' }).firstPage(),
    'GET',
    '/v1/store/inventory?status=sold',
  ],
  ['inventory.get', (c) => c.inventory.get(3), 'GET', '/v1/store/inventory/3'],
  [
    'inventory.set',
    (c) => c.inventory.set(3, { quantity: 7 }),
    'PUT',
    '/v1/store/inventory/3',
    { quantity: 7 },
  ],
  [
    'accounts.create',
    (c) => c.accounts.create({ email: 'jane@example.com' }),
    'POST',
    '/v1/accounts',
    { email: 'jane@example.com' },
  ],
  ['accounts.me', (c) => c.accounts.me(), 'GET', '/v1/accounts/me'],
  ['accounts.createKey', (c) => c.accounts.createKey(), 'POST', '/v1/accounts/me/keys'],
  ['accounts.listKeys', (c) => c.accounts.listKeys().firstPage(), 'GET', '/v1/accounts/me/keys'],
  [
    'accounts.revokeKey',
    (c) => c.accounts.revokeKey('key_1'),
    'DELETE',
    '/v1/accounts/me/keys/key_1',
  ],
  ['messages.get', (c) => c.messages.get('msg_1'), 'GET', '/v1/messages/msg_1'],
  [
    'webhooks.create',
    (c) => c.webhooks.create({ url: 'https://example.com/h', events: ['order.created'] }),
    'POST',
    '/v1/webhooks',
    { url: 'https://example.com/h', events: ['order.created'] },
  ],
  ['webhooks.list', (c) => c.webhooks.list().firstPage(), 'GET', '/v1/webhooks'],
  ['webhooks.get', (c) => c.webhooks.get('wh_1'), 'GET', '/v1/webhooks/wh_1'],
  [
    'webhooks.update',
    (c) => c.webhooks.update('wh_1', { enabled: false }),
    'PATCH',
    '/v1/webhooks/wh_1',
    { enabled: false },
  ],
  ['webhooks.delete', (c) => c.webhooks.delete('wh_1'), 'DELETE', '/v1/webhooks/wh_1'],
  [
    'webhooks.rotateSecret',
    (c) => c.webhooks.rotateSecret('wh_1'),
    'POST',
    '/v1/webhooks/wh_1/secret',
  ],
  [
    'webhooks.listDeliveries',
    (c) => c.webhooks.listDeliveries('wh_1', { limit: 1 }).firstPage(),
    'GET',
    '/v1/webhooks/wh_1/deliveries?limit=1',
  ],
  [
    'webhooks.retryDelivery',
    (c) => c.webhooks.retryDelivery('wh_1', 'whd_2'),
    'POST',
    '/v1/webhooks/wh_1/deliveries/whd_2/retry',
  ],
];

describe('resources', () => {
  it.each(calls)('%s sends its operation', async (name, call, method, url, body) => {
    await using server = await startServer(({ method }) =>
      method === 'DELETE'
        ? { status: 204 }
        : { status: 200, body: name.includes('.list') ? [] : {} },
    );
    const { client } = testClient(server.baseUrl);

    await call(client);

    const [request] = server.received;
    expect({ method: request?.method, url: request?.url }).toEqual({ method, url });
    expect(request?.body ? JSON.parse(request.body) : undefined).toEqual(body);
  });

  it('encodes string ids in paths', async () => {
    await using server = await startServer(() => ({ status: 200, body: {} }));
    const { client } = testClient(server.baseUrl);

    await client.webhooks.get('wh_1/../x?y');

    expect(server.received[0]?.url).toBe('/v1/webhooks/wh_1%2F..%2Fx%3Fy');
  });

  it.each([
    ['orders.create', (c: PetstoreClient) => c.orders.create({ petId: 1, quantity: 1 })],
    ['messages.send', (c: PetstoreClient) => c.messages.send({ message: 'Hello' })],
    ['pets.create', (c: PetstoreClient) => c.pets.create({ name: 'Rex', categoryId: 1 })],
    ['categories.create', (c: PetstoreClient) => c.categories.create({ name: 'Dogs' })],
    ['accounts.createKey', (c: PetstoreClient) => c.accounts.createKey()],
    ['webhooks.rotateSecret', (c: PetstoreClient) => c.webhooks.rotateSecret('wh_1')],
  ])('%s sends a generated Idempotency-Key, the same on every retry', async (_, call) => {
    await using server = await startServer((_, index) =>
      index < 2 ? errorBody(503, 'service_unavailable') : { status: 201, body: {} },
    );
    const { client } = testClient(server.baseUrl);

    await call(client);
    await call(client);

    const keys = server.received.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('sends the caller’s Idempotency-Key instead of a generated one', async () => {
    await using server = await startServer(() => ({ status: 201, body: {} }));
    const { client } = testClient(server.baseUrl);

    await client.orders.create({ petId: 1, quantity: 1 }, { idempotencyKey: 'order-42' });

    expect(server.received[0]?.headers['idempotency-key']).toBe('order-42');
  });
});
