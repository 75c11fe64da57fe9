import { networkInterfaces } from 'node:os';
import {
  contract,
  contractOperations,
  internalContract,
} from '@petstore/contract';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { ok, stockedPet } from '../support/catalogue.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { errorBody, expectError } from '../support/error-bodies.js';
import { fillPath } from '../support/fill-path.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';

// Every route a service serves, public and internal, is refused without the gateway's internal
// token, whatever else the request carries, and nothing reaches a database.

interface ServiceRoute {
  name: string;
  method: string;
  path: string;
  service: 'pets' | 'store';
}

/**
 * The routes of the contract and of the internal contract that a service (not the gateway)
 * serves, in the current version: /v1's are the same routes, with the same handlers.
 */
function serviceRoutes(): ServiceRoute[] {
  return [contract.v2, internalContract]
    .flatMap((router) => contractOperations(router))
    .flatMap(({ name, route, metadata: { service } }) =>
      service === 'gateway'
        ? []
        : [{ name, method: route.method, path: route.path, service }],
    );
}

/** What the requests act on: made through the gateway before any refused request. */
interface Seeded {
  categoryId: number;
  spareCategoryId: number;
  petId: number;
  sparePetId: number;
  orderToComplete: number;
  orderToCancel: number;
}

/** A valid request for each service route, as the gateway would forward it but for the token. */
const requests: Record<
  string,
  (s: Seeded) => {
    params?: Record<string, number>;
    query?: string;
    body?: unknown;
  }
> = {
  listPets: () => ({}),
  createPet: (s) => ({ body: { name: 'Intruder', categoryId: s.categoryId } }),
  getPet: (s) => ({ params: { petId: s.petId } }),
  replacePet: (s) => ({
    params: { petId: s.petId },
    body: { name: 'Replaced', categoryId: s.categoryId, status: 'sold' },
  }),
  updatePet: (s) => ({ params: { petId: s.petId }, body: { name: 'Renamed' } }),
  deletePet: (s) => ({ params: { petId: s.sparePetId } }),
  listCategories: () => ({}),
  createCategory: () => ({ body: { name: 'Intruders' } }),
  getCategory: (s) => ({ params: { categoryId: s.categoryId } }),
  replaceCategory: (s) => ({
    params: { categoryId: s.categoryId },
    body: { name: 'Renamed' },
  }),
  deleteCategory: (s) => ({ params: { categoryId: s.spareCategoryId } }),
  listOrders: () => ({}),
  placeOrder: (s) => ({ body: { petId: s.petId, quantity: 1 } }),
  getOrder: (s) => ({ params: { orderId: s.orderToComplete } }),
  updateOrder: (s) => ({
    params: { orderId: s.orderToComplete },
    body: { complete: true },
  }),
  cancelOrder: (s) => ({ params: { orderId: s.orderToCancel } }),
  listInventory: () => ({}),
  getInventoryItem: (s) => ({ params: { petId: s.petId } }),
  setInventory: (s) => ({ params: { petId: s.petId }, body: { quantity: 0 } }),
  getPet_internal: (s) => ({ params: { petId: s.petId } }),
  setPetStatus: (s) => ({
    params: { petId: s.petId },
    body: { status: 'sold', version: 1 },
  }),
  listPetStatuses: (s) => ({ query: `?petId=${s.petId}` }),
};

/** The internal getPet shares its key with the public one; it is told apart by its path. */
function requestKey({ name, path }: ServiceRoute): string {
  return path.startsWith('/internal/') && name === 'getPet'
    ? 'getPet_internal'
    : name;
}

let db: DatabaseReader;
let customerKey: string;
let seeded: Seeded;

const api = testStackForFile(unthrottled);

beforeAll(async () => {
  db = await api.databases();
  const customer = await api.signUp();
  customerKey = customer.apiKey;
  const { categoryId, petId } = await stockedPet(api.admin);
  const spareCategory = ok(
    await api.admin.categories.createCategory({ body: { name: 'Spare' } }),
    201,
  );
  const sparePet = ok(
    await api.admin.pets.createPet({ body: { name: 'Spot', categoryId } }),
    201,
  );
  const order = async () =>
    ok(
      await customer.api.orders.placeOrder({ body: { petId, quantity: 1 } }),
      201,
    ).body.id ?? -1;
  seeded = {
    categoryId,
    spareCategoryId: spareCategory.body.id,
    petId,
    sparePetId: sparePet.body.id,
    orderToComplete: await order(),
    orderToCancel: await order(),
  };
  // The store pushes pet statuses and the services hand events over in the background: let
  // them settle before taking snapshots.
  await settled();
});

async function settled(): Promise<void> {
  await vi.waitFor(
    async () => {
      expect(await db.pendingWork()).toEqual({ pushes: 0, events: 0 });
    },
    { timeout: 10_000, interval: 100 },
  );
}

async function snapshots() {
  return {
    pets: await db.snapshot(databaseNames.pets),
    store: await db.snapshot(databaseNames.store),
  };
}

function serviceUrl(service: ServiceRoute['service']): string {
  return service === 'pets' ? api.stack.pets.url : api.stack.store.url;
}

/** Identity headers that would make a request an admin's, were the token not checked. */
const asAdmin = { 'x-account-id': 'acct_admin', 'x-account-role': 'admin' };

/** Requests that carry everything but the right internal token. */
function withoutTheToken(): {
  label: string;
  headers: Record<string, string>;
}[] {
  const token = api.stack.internalToken;
  const sameLengthWrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
  return [
    { label: 'no token', headers: {} },
    { label: 'an empty token', headers: { 'x-internal-token': '' } },
    {
      label: 'a wrong token',
      headers: { 'x-internal-token': 'wrong-token-0123456789abcdef012345' },
    },
    {
      label: 'a wrong token of the right length',
      headers: { 'x-internal-token': sameLengthWrong },
    },
    {
      label: 'the token with a prefix',
      headers: { 'x-internal-token': `x${token}` },
    },
    {
      label: 'the token twice',
      headers: { 'x-internal-token': `${token}, ${token}` },
    },
    {
      label: 'a customer’s API key as Bearer',
      headers: { authorization: `Bearer ${customerKey}` },
    },
    {
      label: 'the admin key as Bearer',
      headers: { authorization: `Bearer ${api.stack.adminApiKey}` },
    },
    {
      label: 'the token as Bearer',
      headers: { authorization: `Bearer ${token}` },
    },
  ];
}

describe('the services behind the gateway', () => {
  it('serve the routes this suite knows a request for', () => {
    const names = serviceRoutes().map(requestKey);
    expect(names.sort()).toEqual(Object.keys(requests).sort());
    expect(
      serviceRoutes().filter(({ path }) => path.startsWith('/internal/')),
    ).toHaveLength(Object.keys(internalContract.pets).length);
  });

  it('answer 401 unauthorized on every route without the internal token, writing nothing', async () => {
    const before = await snapshots();
    for (const route of serviceRoutes()) {
      const request = requests[requestKey(route)];
      if (!request) throw new Error(`no request for ${route.name}`);
      const { params, query = '', body } = request(seeded);
      for (const { label, headers } of withoutTheToken()) {
        const answer = await callHttp(
          serviceUrl(route.service),
          route.method,
          fillPath(route.path, params) + query,
          {
            body,
            headers: { ...asAdmin, ...headers },
          },
        );
        expect({
          route: `${route.method} ${route.path}`,
          label,
          status: answer.status,
        }).toEqual({
          route: `${route.method} ${route.path}`,
          label,
          status: 401,
        });
        expect(answer.body).toEqual(errorBody('unauthorized'));
        expect(answer.headers.get('content-type')).toMatch(
          /^application\/json/,
        );
      }
    }
    expect(await snapshots()).toEqual(before);
  });

  it('answer 401 without the token on paths they do not serve, so nothing can be discovered', async () => {
    for (const service of ['pets', 'store'] as const) {
      for (const [method, path] of [
        ['GET', '/v1/nothing'],
        ['POST', '/internal/pets/1'],
        ['GET', '/v1/accounts/me'],
      ] as const) {
        const answer = await callHttp(serviceUrl(service), method, path);
        expect({ service, path, status: answer.status }).toEqual({
          service,
          path,
          status: 401,
        });
        expect(answer.body).toEqual(errorBody('unauthorized'));
      }
    }
  });

  it('do every one of those requests once the internal token is there', async () => {
    // The refused requests were valid ones: with the token, each of them works.
    for (const route of serviceRoutes()) {
      const request = requests[requestKey(route)];
      if (!request) throw new Error(`no request for ${route.name}`);
      const { params, query = '', body } = request(seeded);
      const res = await callHttp(
        serviceUrl(route.service),
        route.method,
        fillPath(route.path, params) + query,
        {
          body,
          headers: { ...asAdmin, 'x-internal-token': api.stack.internalToken },
        },
      );
      expect({ route: route.name, status: res.status }).toEqual({
        route: route.name,
        status: expect.toSatisfy(
          (status: number) => status >= 200 && status < 300,
        ) as number,
      });
    }
  });
});

describe('where the services listen', () => {
  it('is the loopback interface only: other addresses of this machine refuse the connection', async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter(
        (address) =>
          address !== undefined &&
          !address.internal &&
          address.family === 'IPv4',
      )
      .map((address) => address?.address ?? '');
    for (const service of [api.stack.pets, api.stack.store]) {
      const { port } = new URL(service.url);
      expect(new URL(service.url).hostname).toBe('127.0.0.1');
      for (const host of others) {
        const reached = await fetch(`http://${host}:${port}/health`, {
          signal: AbortSignal.timeout(5_000),
        }).then(
          () => true,
          () => false,
        );
        expect({ service: service.name, host, reached }).toEqual({
          service: service.name,
          host,
          reached: false,
        });
      }
    }
  });
});

describe('the gateway', () => {
  it('never routes the internal operations, even with the admin key and the internal token', async () => {
    const { petId } = await stockedPet(api.admin);
    for (const route of Object.values(internalContract.pets)) {
      const answer = await callHttp(
        api.url,
        route.method,
        fillPath(route.path, { petId }),
        {
          apiKey: api.stack.adminApiKey,
          body: route.method === 'PUT' ? { status: 'sold' } : undefined,
          headers: { ...asAdmin, 'x-internal-token': api.stack.internalToken },
        },
      );
      expectError(answer, 'route_not_found');
    }
    const pet = await api.admin.pets.listPets({ query: { limit: 100 } });
    expect(pet.body).toContainEqual(
      expect.objectContaining({ id: petId, status: 'available' }),
    );
  });
});
