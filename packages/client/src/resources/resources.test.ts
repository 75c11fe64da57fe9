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
    '/v2/pets',
    { name: 'Rex', categoryId: 1 },
  ],
  ['pets.get', (c) => c.pets.get(1), 'GET', '/v2/pets/1'],
  [
    'pets.replace',
    (c) => c.pets.replace(1, { name: 'Rex', categoryId: 2 }),
    'PUT',
    '/v2/pets/1',
    { name: 'Rex', categoryId: 2 },
  ],
  [
    'pets.update',
    (c) => c.pets.update(1, { status: 'sold' }),
    'PATCH',
    '/v2/pets/1',
    { status: 'sold' },
  ],
  ['pets.delete', (c) => c.pets.delete(1), 'DELETE', '/v2/pets/1'],
  [
    'categories.list',
    (c) => c.categories.list({ limit: 5 }).firstPage(),
    'GET',
    '/v2/categories?limit=5',
  ],
  [
    'categories.create',
    (c) => c.categories.create({ name: 'Dogs' }),
    'POST',
    '/v2/categories',
    { name: 'Dogs' },
  ],
  ['categories.get', (c) => c.categories.get(2), 'GET', '/v2/categories/2'],
  [
    'categories.replace',
    (c) => c.categories.replace(2, { name: 'Cats' }),
    'PUT',
    '/v2/categories/2',
    { name: 'Cats' },
  ],
  [
    'categories.delete',
    (c) => c.categories.delete(2),
    'DELETE',
    '/v2/categories/2',
  ],
  [
    'orders.list',
    (c) => c.orders.list({ petId: 3 }).firstPage(),
    'GET',
    '/v2/store/orders?petId=3',
  ],
  ['orders.get', (c) => c.orders.get(4), 'GET', '/v2/store/orders/4'],
  [
    'orders.update',
    (c) => c.orders.update(4, { complete: true }),
    'PATCH',
    '/v2/store/orders/4',
    { complete: true },
  ],
  ['orders.cancel', (c) => c.orders.cancel(4), 'DELETE', '/v2/store/orders/4'],
  [
    'inventory.list',
    (c) => c.inventory.list({ status: 'sold' }).firstPage(),
    'GET',
    '/v2/store/inventory?status=sold',
  ],
  ['inventory.get', (c) => c.inventory.get(3), 'GET', '/v2/store/inventory/3'],
  [
    'inventory.set',
    (c) => c.inventory.set(3, { quantity: 7 }),
    'PUT',
    '/v2/store/inventory/3',
    { quantity: 7 },
  ],
  [
    'accounts.create',
    (c) => c.accounts.create({ email: 'jane@example.com' }),
    'POST',
    '/v2/accounts',
    { email: 'jane@example.com' },
  ],
  ['accounts.me', (c) => c.accounts.me(), 'GET', '/v2/accounts/me'],
  [
    'accounts.createKey',
    (c) => c.accounts.createKey(),
    'POST',
    '/v2/accounts/me/keys',
  ],
  [
    'accounts.listKeys',
    (c) => c.accounts.listKeys().firstPage(),
    'GET',
    '/v2/accounts/me/keys',
  ],
  [
    'accounts.revokeKey',
    (c) => c.accounts.revokeKey('key_1'),
    'DELETE',
    '/v2/accounts/me/keys/key_1',
  ],
  ['messages.get', (c) => c.messages.get('msg_1'), 'GET', '/v2/messages/msg_1'],
  [
    'webhooks.create',
    (c) =>
      c.webhooks.create({
        url: 'https://example.com/h',
        events: ['order.created'],
      }),
    'POST',
    '/v2/webhooks',
    { url: 'https://example.com/h', events: ['order.created'] },
  ],
  [
    'webhooks.list',
    (c) => c.webhooks.list().firstPage(),
    'GET',
    '/v2/webhooks',
  ],
  ['webhooks.get', (c) => c.webhooks.get('wh_1'), 'GET', '/v2/webhooks/wh_1'],
  [
    'webhooks.update',
    (c) => c.webhooks.update('wh_1', { enabled: false }),
    'PATCH',
    '/v2/webhooks/wh_1',
    { enabled: false },
  ],
  [
    'webhooks.delete',
    (c) => c.webhooks.delete('wh_1'),
    'DELETE',
    '/v2/webhooks/wh_1',
  ],
  [
    'webhooks.rotateSecret',
    (c) => c.webhooks.rotateSecret('wh_1'),
    'POST',
    '/v2/webhooks/wh_1/secret',
  ],
  [
    'webhooks.listDeliveries',
    (c) => c.webhooks.listDeliveries('wh_1', { limit: 1 }).firstPage(),
    'GET',
    '/v2/webhooks/wh_1/deliveries?limit=1',
  ],
  [
    'webhooks.retryDelivery',
    (c) => c.webhooks.retryDelivery('wh_1', 'whd_2'),
    'POST',
    '/v2/webhooks/wh_1/deliveries/whd_2/retry',
  ],
  [
    'webhooks.test',
    (c) => c.webhooks.test('wh_1'),
    'POST',
    '/v2/webhooks/wh_1/test',
  ],
];

describe('resources', () => {
  it.each(calls)(
    '%s sends its operation',
    async (name, call, method, url, body) => {
      await using server = await startServer(
        method === 'DELETE'
          ? { status: 204 }
          : { status: 200, body: name.includes('.list') ? [] : {} },
      );
      const { client } = testClient(server.baseUrl);

      await call(client);

      const [request] = await server.received();
      expect({ method: request?.method, url: request?.url }).toEqual({
        method,
        url,
      });
      expect(request?.body ? JSON.parse(request.body) : undefined).toEqual(
        body,
      );
    },
  );

  it('encodes string ids in paths', async () => {
    await using server = await startServer({ status: 200, body: {} });
    const { client } = testClient(server.baseUrl);

    await client.webhooks.get('wh_1/../x?y');

    const [request] = await server.received();
    expect(request?.url).toBe('/v2/webhooks/wh_1%2F..%2Fx%3Fy');
  });

  const posts: [string, Call][] = [
    ...calls
      .filter(([, , method]) => method === 'POST')
      .map(([name, call]): [string, Call] => [name, call]),
    ['orders.create', (c) => c.orders.create({ petId: 1, quantity: 1 })],
    ['messages.send', (c) => c.messages.send({ message: 'Hello' })],
  ];

  it.each(posts)(
    '%s sends a generated Idempotency-Key, the same on every retry',
    async (_, call) => {
      await using server = await startServer(
        errorBody(503, 'service_unavailable'),
        errorBody(503, 'service_unavailable'),
        { status: 201, body: {} },
      );
      const { client } = testClient(server.baseUrl);

      await call(client);
      await call(client);

      const keys = (await server.received()).map(
        (request) => request.headers['idempotency-key'],
      );
      expect(keys).toHaveLength(4);
      expect(keys[0]).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(keys[1]).toBe(keys[0]);
      expect(keys[2]).toBe(keys[0]);
      expect(keys[3]).not.toBe(keys[0]);
    },
  );

  it('sends the caller’s Idempotency-Key instead of a generated one', async () => {
    await using server = await startServer({ status: 201, body: {} });
    const { client } = testClient(server.baseUrl);

    await client.orders.create(
      { petId: 1, quantity: 1 },
      { idempotencyKey: 'order-42' },
    );

    const [request] = await server.received();
    expect(request?.headers['idempotency-key']).toBe('order-42');
  });
});
