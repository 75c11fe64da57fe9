import {
  contract,
  contractOperations,
  type PetstoreClient,
} from '@petstore/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { ok, petInStock } from './support/catalogue.js';
import { expectError } from './support/error-bodies.js';
import { fillPath } from './support/fill-path.js';
import { testStackForFile } from './support/stack-for-file.js';
import type { SignedUp } from './support/test-stack.js';

// Key uses are written every 200 ms rather than every 5 s, so lastUsedAt shows quickly.
const api = testStackForFile({ KEY_USAGE_FLUSH_MS: '200' });
let alice: SignedUp;
let bob: SignedUp;

beforeAll(async () => {
  alice = await api.signUp();
  bob = await api.signUp();
});

/** What the admin-only operations act on: fresh for each test. */
interface Catalogue {
  categoryId: number;
  spareCategoryId: number;
  petId: number;
  sparePetId: number;
  orderId: number;
}

let catalogues = 0;
async function catalogue(): Promise<Catalogue> {
  const n = ++catalogues;
  const category = ok(
    await api.admin.categories.createCategory({ body: { name: `Dogs ${n}` } }),
    201,
  );
  const spareCategory = ok(
    await api.admin.categories.createCategory({ body: { name: `Spare ${n}` } }),
    201,
  );
  const categoryId = category.body.id;
  const petId = await petInStock(api.admin, categoryId, 10);
  const sparePet = ok(
    await api.admin.pets.createPet({ body: { name: 'Spot', categoryId } }),
    201,
  );
  const order = ok(
    await bob.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
    201,
  );
  return {
    categoryId,
    spareCategoryId: spareCategory.body.id,
    petId,
    sparePetId: sparePet.body.id,
    orderId: order.body.id ?? -1,
  };
}

/** A valid request for each admin-only operation: its path parameters and body. */
const adminRequests: Record<
  string,
  (c: Catalogue) => { params?: Record<string, number>; body?: unknown }
> = {
  createPet: (c) => ({ body: { name: 'Bella', categoryId: c.categoryId } }),
  replacePet: (c) => ({
    params: { petId: c.petId },
    body: { name: 'Rex II', categoryId: c.categoryId, status: 'pending' },
  }),
  updatePet: (c) => ({ params: { petId: c.petId }, body: { name: 'Rex III' } }),
  deletePet: (c) => ({ params: { petId: c.sparePetId } }),
  createCategory: (c) => ({ body: { name: `Parrots ${c.categoryId}` } }),
  replaceCategory: (c) => ({
    params: { categoryId: c.categoryId },
    body: { name: `Good dogs ${c.categoryId}` },
  }),
  deleteCategory: (c) => ({ params: { categoryId: c.spareCategoryId } }),
  updateOrder: (c) => ({
    params: { orderId: c.orderId },
    body: { complete: true },
  }),
  setInventory: (c) => ({ params: { petId: c.petId }, body: { quantity: 3 } }),
};

const adminRoutes = contractOperations(contract.v2).filter(
  ({ metadata }) => metadata.role === 'admin',
);

/** Calls every admin-only operation, in contract order, with `apiKey` and a valid request. */
async function callEveryAdminRoute(
  apiKey: string,
  c: Catalogue,
  headers?: Record<string, string>,
) {
  const answers = [];
  for (const { name, route } of adminRoutes) {
    const request = adminRequests[name];
    if (!request) throw new Error(`no request in adminRequests for ${name}`);
    const { params, body } = request(c);
    const answer = await callHttp(
      api.url,
      route.method,
      fillPath(route.path, params),
      {
        apiKey,
        body,
        headers,
      },
    );
    answers.push({ route: name, answer });
  }
  return answers;
}

/** The state the admin-only operations would change, as a customer reads it. */
async function observe(c: Catalogue) {
  const reader = alice.api;
  return {
    categories: (
      await reader.categories.listCategories({ query: { limit: 100 } })
    ).body,
    pets: (await reader.pets.listPets({ query: { limit: 100 } })).body,
    stock: (
      await reader.inventory.getInventoryItem({
        params: { petId: String(c.petId) },
      })
    ).body,
    order: (
      await api.admin.orders.getOrder({
        params: { orderId: String(c.orderId) },
      })
    ).body,
  };
}

describe('roles', () => {
  it('knows the admin-only operations of the contract', () => {
    expect(adminRoutes.map(({ name }) => name).sort()).toEqual(
      Object.keys(adminRequests).sort(),
    );
  });

  it('returns 403 forbidden to a customer on every admin-only operation, changing nothing', async () => {
    const c = await catalogue();
    const before = await observe(c);
    for (const { route, answer } of await callEveryAdminRoute(
      alice.apiKey,
      c,
    )) {
      expect({ route, status: answer.status }).toEqual({ route, status: 403 });
      expectError(answer, 'forbidden');
    }
    expect(await observe(c)).toEqual(before);
  });

  it('lets the admin do every admin-only operation', async () => {
    const c = await catalogue();
    for (const { route, answer } of await callEveryAdminRoute(
      api.stack.adminApiKey,
      c,
    )) {
      expect({ route, status: answer.status }).toEqual({
        route,
        status: expect.toSatisfy(
          (status: number) => status >= 200 && status < 300,
        ) as number,
      });
    }
    const order = await bob.api.orders.getOrder({
      params: { orderId: String(c.orderId) },
    });
    expect(order).toMatchObject({ status: 200, body: { complete: true } });
    const deleted = await alice.api.categories.getCategory({
      params: { categoryId: String(c.spareCategoryId) },
    });
    expect(deleted.status).toBe(404);
  });
});

describe('ownership', () => {
  it('returns 404 not_found for another account’s order, and leaves it open', async () => {
    const { petId } = await catalogue();
    const order = ok(
      await alice.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    );
    const orderId = String(order.body.id);

    expectError(
      await bob.api.orders.getOrder({ params: { orderId } }),
      'not_found',
    );
    expectError(
      await bob.api.orders.cancelOrder({ params: { orderId } }),
      'not_found',
    );
    const listed = ok(
      await bob.api.orders.listOrders({ query: { limit: 100 } }),
      200,
    );
    expect(listed.body.map(({ id }) => id)).not.toContain(order.body.id);

    expect(
      await alice.api.orders.getOrder({ params: { orderId } }),
    ).toMatchObject({
      status: 200,
      body: { id: order.body.id, complete: false },
    });
  });

  it('returns 404 not_found for another account’s message', async () => {
    const sent = ok(
      await alice.api.messages.sendMessage({
        body: { message: 'for my eyes only' },
      }),
      202,
    );
    const messageId = sent.body.id;
    expectError(
      await bob.api.messages.getMessage({ params: { messageId } }),
      'not_found',
    );
    expect(
      (await alice.api.messages.getMessage({ params: { messageId } })).status,
    ).toBe(200);
  });

  it('returns 404 not_found for revoking another account’s key, which keeps working', async () => {
    const [aliceKey] = ok(await alice.api.accounts.listKeys(), 200).body;
    if (!aliceKey) throw new Error('alice has no key');
    expectError(
      await bob.api.accounts.revokeKey({ params: { keyId: aliceKey.id } }),
      'not_found',
    );
    expect((await alice.api.accounts.getMe()).status).toBe(200);
  });

  it('lists each customer’s own orders only, and every order to the admin', async () => {
    const { petId } = await catalogue();
    const aliceOrder = ok(
      await alice.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    );
    const bobOrder = ok(
      await bob.api.orders.placeOrder({ body: { petId, quantity: 2 } }),
      201,
    );
    const ids = async (client: PetstoreClient) =>
      ok(
        await client.orders.listOrders({
          query: { petId: String(petId), limit: 100 },
        }),
        200,
      ).body.map(({ id }) => id);

    expect(await ids(alice.api)).toEqual([aliceOrder.body.id]);
    // Bob's order placed by catalogue() is on this pet too.
    expect(await ids(bob.api)).toEqual(
      expect.arrayContaining([bobOrder.body.id]),
    );
    expect(await ids(bob.api)).not.toContain(aliceOrder.body.id);
    expect(await ids(api.admin)).toEqual(
      expect.arrayContaining([aliceOrder.body.id, bobOrder.body.id]),
    );
    const seen = await api.admin.orders.getOrder({
      params: { orderId: String(aliceOrder.body.id) },
    });
    expect(seen).toMatchObject({
      status: 200,
      body: { id: aliceOrder.body.id },
    });
  });
});

describe('identity comes from the key only', () => {
  const spoofed = () => [
    {
      'x-account-id': alice.accountId,
      'x-account-role': 'admin',
      'x-internal-token': 'anything',
    },
    // Even the real internal token, were it to leak, names no account at the gateway.
    {
      'x-account-id': alice.accountId,
      'x-account-role': 'admin',
      'x-internal-token': api.stack.internalToken,
    },
  ];

  it('ignores identity headers a customer sends: still 403 on admin operations', async () => {
    const c = await catalogue();
    for (const headers of spoofed()) {
      for (const { route, answer } of await callEveryAdminRoute(
        bob.apiKey,
        c,
        headers,
      )) {
        expect({ route, status: answer.status }).toEqual({
          route,
          status: 403,
        });
        expectError(answer, 'forbidden');
      }
    }
  });

  it('ignores identity headers a customer sends: still their own account and orders', async () => {
    const { petId } = await catalogue();
    const aliceOrder = ok(
      await alice.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    );
    for (const headers of spoofed()) {
      const as = (path: string) =>
        callHttp(api.url, 'GET', path, { apiKey: bob.apiKey, headers });
      const me = await as('/v1/accounts/me');
      expect(me).toMatchObject({
        status: 200,
        body: { id: bob.accountId, role: 'customer' },
      });

      const orders = await as('/v1/store/orders?limit=100');
      expect(orders.status).toBe(200);
      expect(
        (orders.body as { id: number }[]).map(({ id }) => id),
      ).not.toContain(aliceOrder.body.id);
      expectError(
        await as(`/v1/store/orders/${aliceOrder.body.id}`),
        'not_found',
      );
    }
  });

  it('ignores a request without a key that claims to be the admin', async () => {
    const answer = await callHttp(api.url, 'GET', '/v1/store/orders', {
      headers: { 'x-account-id': alice.accountId, 'x-account-role': 'admin' },
    });
    expectError(answer, 'unauthorized');
  });
});

describe('API keys', () => {
  it('rejects a revoked key at the very next request, while the account’s other key works', async () => {
    const created = ok(await alice.api.accounts.createKey(), 201);
    const second = api.client(created.body.apiKey);
    expect((await second.accounts.getMe()).status).toBe(200); // known, and so cached, now

    expect(
      (
        await alice.api.accounts.revokeKey({
          params: { keyId: created.body.id },
        })
      ).status,
    ).toBe(204);
    const refused = await second.accounts.getMe();
    expectError(refused, 'unauthorized');
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer realm="petstore"',
    );
    expectError(await second.pets.listPets({ query: {} }), 'unauthorized');

    expect(await alice.api.accounts.getMe()).toMatchObject({
      status: 200,
      body: { id: alice.accountId },
    });
    const keys = ok(await alice.api.accounts.listKeys(), 200).body;
    expect(keys.map(({ id }) => id)).not.toContain(created.body.id);
  });

  it('lets a key revoke itself, and refuses it from then on', async () => {
    const created = ok(await alice.api.accounts.createKey(), 201);
    const itself = api.client(created.body.apiKey);
    expect(
      (await itself.accounts.revokeKey({ params: { keyId: created.body.id } }))
        .status,
    ).toBe(204);
    expectError(await itself.accounts.getMe(), 'unauthorized');
  });

  it('lists keys without their key material', async () => {
    const created = ok(await bob.api.accounts.createKey(), 201);
    expect(created.body.apiKey).toMatch(/^psk_[0-9A-Za-z]{32,}$/);
    expect(created.body.apiKey.startsWith(created.body.prefix)).toBe(true);
    expect(created.body.prefix.length).toBeLessThan(
      created.body.apiKey.length / 2,
    );

    const res = await callHttp<Record<string, unknown>[]>(
      api.url,
      'GET',
      '/v1/accounts/me/keys',
      {
        apiKey: bob.apiKey,
      },
    );
    const text = JSON.stringify(res.body);
    expect(res.status).toBe(200);
    expect(text).not.toContain(created.body.apiKey);
    expect(text).not.toContain(bob.apiKey);
    const keys = res.body;
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual([
        'createdAt',
        'id',
        'lastUsedAt',
        'prefix',
      ]);
    }
    expect(keys).toContainEqual(
      expect.objectContaining({
        id: created.body.id,
        prefix: created.body.prefix,
      }),
    );
  });

  it('records when a key was last used, without showing the key', async () => {
    const created = ok(await bob.api.accounts.createKey(), 201);
    const listed = ok(await bob.api.accounts.listKeys(), 200).body;
    expect(
      listed.find(({ id }) => id === created.body.id)?.lastUsedAt,
    ).toBeNull();

    expect(
      (await api.client(created.body.apiKey).accounts.getMe()).status,
    ).toBe(200);
    // Uses are written in batches, every KEY_USAGE_FLUSH_MS.
    await expect
      .poll(async () =>
        ok(await bob.api.accounts.listKeys(), 200).body.find(
          ({ id }) => id === created.body.id,
        ),
      )
      .toEqual({
        id: created.body.id,
        prefix: created.body.prefix,
        createdAt: created.body.createdAt,
        lastUsedAt: expect.stringMatching(
          /^\d{4}-\d\d-\d\dT[\d:.]+Z$/,
        ) as string,
      });
  });

  it('shows the key once, at sign-up: the account never shows it again', async () => {
    const signUp = await callHttp<{ id: string; apiKey: string }>(
      api.url,
      'POST',
      '/v1/accounts',
      {
        body: { email: `once.${Date.now()}@example.com`, name: 'Once' },
      },
    );
    expect(signUp.status).toBe(201);
    const account = signUp.body;
    expect(account.apiKey).toMatch(/^psk_[0-9A-Za-z]{32,}$/);

    const me = await callHttp(api.url, 'GET', '/v1/accounts/me', {
      apiKey: account.apiKey,
    });
    const text = JSON.stringify(me.body);
    expect(me.status).toBe(200);
    expect(text).not.toContain(account.apiKey);
    expect(Object.keys(me.body as object).sort()).toEqual([
      'createdAt',
      'email',
      'id',
      'name',
      'role',
    ]);
  });
});
