import { isZodType, type AppRoute } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { contractOperations } from './contract-operations.js';
import { contract, internalContract } from './contract.js';
import { ErrorSchema, errorStatus, responseCodes } from './errors.js';
import { innerSchema, objectShape } from './zod-unwrap.js';
import { z } from './zod.js';
import { routeMetadata } from './contract-operations.js';

/** What every /v1 operation can answer on its way through the gateway. */
const V1 = [429, 500, 502, 503, 504];

/** API.md's operations, with every status it gives each one, its Errors table included. */
const specified: [method: string, path: string, statuses: number[]][] = [
  ['GET', '/health', [200]],
  ['GET', '/ready', [200, 503]],
  ['GET', '/openapi.json', [200]],
  ['GET', '/docs', [200]],
  ['POST', '/v1/accounts', [201, 400, 409, 413, 415, ...V1]],
  ['GET', '/v1/accounts/me', [200, 401, ...V1]],
  ['POST', '/v1/accounts/me/keys', [201, 401, ...V1]],
  ['GET', '/v1/accounts/me/keys', [200, 400, 401, ...V1]],
  ['DELETE', '/v1/accounts/me/keys/:keyId', [204, 400, 401, 404, ...V1]],
  ['GET', '/v1/pets', [200, 400, 401, ...V1]],
  ['POST', '/v1/pets', [201, 400, 401, 403, 413, 415, 422, ...V1]],
  ['GET', '/v1/pets/:petId', [200, 400, 401, 404, 410, ...V1]],
  ['PUT', '/v1/pets/:petId', [200, 400, 401, 403, 404, 413, 415, 422, ...V1]],
  ['PATCH', '/v1/pets/:petId', [200, 400, 401, 403, 404, 413, 415, 422, ...V1]],
  ['DELETE', '/v1/pets/:petId', [204, 400, 401, 403, 404, ...V1]],
  ['GET', '/v1/categories', [200, 400, 401, ...V1]],
  ['POST', '/v1/categories', [201, 400, 401, 403, 409, 413, 415, ...V1]],
  ['GET', '/v1/categories/:categoryId', [200, 400, 401, 404, ...V1]],
  ['PUT', '/v1/categories/:categoryId', [200, 400, 401, 403, 404, 409, 413, 415, ...V1]],
  ['DELETE', '/v1/categories/:categoryId', [204, 400, 401, 403, 404, 409, ...V1]],
  ['GET', '/v1/store/orders', [200, 400, 401, ...V1]],
  ['POST', '/v1/store/orders', [201, 400, 401, 409, 413, 415, 422, ...V1]],
  ['GET', '/v1/store/orders/:orderId', [200, 400, 401, 404, ...V1]],
  ['PATCH', '/v1/store/orders/:orderId', [200, 400, 401, 403, 404, 413, 415, ...V1]],
  ['DELETE', '/v1/store/orders/:orderId', [204, 400, 401, 404, 409, ...V1]],
  ['GET', '/v1/store/inventory', [200, 400, 401, ...V1]],
  ['GET', '/v1/store/inventory/:petId', [200, 400, 401, 404, ...V1]],
  ['PUT', '/v1/store/inventory/:petId', [200, 400, 401, 403, 413, 415, 422, ...V1]],
  ['POST', '/v1/messages', [202, 400, 401, 413, 415, 422, ...V1]],
  ['GET', '/v1/messages/:messageId', [200, 400, 401, 404, ...V1]],
  ['POST', '/v1/webhooks', [201, 400, 401, 403, 422, ...V1]],
  ['GET', '/v1/webhooks', [200, 400, 401, ...V1]],
  ['GET', '/v1/webhooks/:webhookId', [200, 400, 401, 404, ...V1]],
  ['PATCH', '/v1/webhooks/:webhookId', [200, 400, 401, 403, 404, 422, ...V1]],
  ['DELETE', '/v1/webhooks/:webhookId', [204, 400, 401, 404, ...V1]],
  ['POST', '/v1/webhooks/:webhookId/secret', [201, 400, 401, 404, ...V1]],
  ['GET', '/v1/webhooks/:webhookId/deliveries', [200, 400, 401, 404, ...V1]],
  ['POST', '/v1/webhooks/:webhookId/deliveries/:deliveryId/retry', [202, 400, 401, 404, ...V1]],
  ['POST', '/v1/webhooks/:webhookId/test', [202, 400, 401, 404, 409, 422, ...V1]],
];

const publicRoutes = contractOperations(contract);
const internalRoutes = contractOperations(internalContract);

function findRoute(method: string, path: string): AppRoute | undefined {
  return publicRoutes.find(({ route }) => route.method === method && route.path === path)?.route;
}

function statusesOf(route: AppRoute): number[] {
  return Object.keys(route.responses).map(Number);
}

function hasBody(route: AppRoute): boolean {
  return 'body' in route && isZodType(route.body);
}

/** Where an object schema inside `schema` lets unknown keys through (a record's values aside). */
function looseObjects(schema: z.ZodTypeAny, at: string): string[] {
  const inner = innerSchema(schema);
  if (inner !== undefined) return looseObjects(inner, at);
  if (schema instanceof z.ZodObject) {
    const own = schema._def.unknownKeys === 'strict' ? [] : [at];
    const shape = schema.shape as z.ZodRawShape;
    return [
      ...own,
      ...Object.entries(shape).flatMap(([key, field]) => looseObjects(field, `${at}.${key}`)),
    ];
  }
  if (schema instanceof z.ZodArray) return looseObjects(schema.element as z.ZodTypeAny, `${at}[]`);
  if (schema instanceof z.ZodUnion) {
    return (schema.options as z.ZodTypeAny[]).flatMap((option) => looseObjects(option, at));
  }
  return [];
}

describe('the contract against API.md', () => {
  it.each(specified)('has %s %s with every status API.md gives it', (method, path, statuses) => {
    const route = findRoute(method, path);
    expect(route && statusesOf(route), `${method} ${path}`).toEqual(
      expect.arrayContaining(statuses),
    );
  });

  it('has no public operation API.md does not list', () => {
    const listed = new Set(specified.map(([method, path]) => `${method} ${path}`));
    const extra = publicRoutes
      .map(({ route }) => `${route.method} ${route.path}`)
      .filter((operation) => !listed.has(operation));
    expect(extra).toEqual([]);
  });

  it('marks GET /v1/pets/{petId} deprecated with its sunset date', () => {
    const route = contract.pets.getPet;
    expect(route.deprecated).toBe(true);
    expect(routeMetadata(route).sunset).toBe('2027-06-30T00:00:00Z');
  });

  it('hides the try-it panel of GET /v1/store/orders', () => {
    expect(routeMetadata(contract.orders.listOrders).hideTryItPanel).toBe(true);
  });

  it('marks the key-management operations experimental, messages and webhooks beta', () => {
    const withStability = (stability: string) =>
      publicRoutes
        .filter(({ route }) => routeMetadata(route).stability === stability)
        .map(({ name }) => name)
        .sort();
    const webhookOperations = Object.keys(contract.webhooks);
    expect(webhookOperations).toHaveLength(9);
    expect(withStability('experimental')).toEqual(['createKey', 'listKeys', 'revokeKey']);
    expect(withStability('beta')).toEqual(
      ['getMessage', 'sendMessage', ...webhookOperations].sort(),
    );
  });

  it.each([
    ['POST /v1/store/orders', contract.orders.placeOrder.headers],
    ['POST /v1/messages', contract.messages.sendMessage.headers],
    ['POST /v1/pets', contract.pets.createPet.headers],
    ['POST /v1/categories', contract.categories.createCategory.headers],
    ['POST /v1/accounts', contract.accounts.createAccount.headers],
    ['POST /v1/accounts/me/keys', contract.accounts.createKey.headers],
    ['POST /v1/webhooks', contract.webhooks.createWebhook.headers],
    ['POST /v1/webhooks/{webhookId}/secret', contract.webhooks.rotateWebhookSecret.headers],
    [
      'POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
      contract.webhooks.retryWebhookDelivery.headers,
    ],
  ])('declares the optional Idempotency-Key header of %s', (_operation, headers) => {
    expect(headers.parse({})).toEqual({});
    expect(headers.safeParse({ 'idempotency-key': 'x'.repeat(255) }).success).toBe(true);
    expect(headers.safeParse({ 'idempotency-key': '' }).success).toBe(false);
    expect(headers.safeParse({ 'idempotency-key': 'x'.repeat(256) }).success).toBe(false);
  });

  it('answers /docs as HTML', () => {
    expect(contract.meta.docs.responses[200]).toMatchObject({ contentType: 'text/html' });
  });
});

describe('rules every route follows', () => {
  const everyRoute = [...publicRoutes, ...internalRoutes];

  it('gives every route its metadata', () => {
    for (const { route } of everyRoute) {
      expect(() => routeMetadata(route)).not.toThrow();
    }
  });

  it('gives every route a unique key and a unique method and path', () => {
    const keys = publicRoutes.map(({ name }) => name);
    expect(new Set(keys).size).toBe(keys.length);
    const operations = everyRoute.map(({ route }) => `${route.method} ${route.path}`);
    expect(new Set(operations).size).toBe(operations.length);
  });

  it('describes every public route with a summary and a description', () => {
    for (const { name, route } of publicRoutes) {
      expect(route.summary, name).toBeTruthy();
      expect(route.description, name).toBeTruthy();
    }
  });

  it('answers every error with the Error schema, its codes exactly those of its status', () => {
    const errorFields = Object.keys(ErrorSchema.shape).sort();
    for (const { name, route } of everyRoute) {
      for (const status of statusesOf(route).filter((status) => status >= 400)) {
        const response = route.responses[status];
        const codes = responseCodes(response);
        expect(codes.length, `${name} ${status}`).toBeGreaterThan(0);
        expect(new Set(codes.map((code) => errorStatus[code])), `${name} ${status}`).toEqual(
          new Set([status]),
        );
        expect(Object.keys(objectShape(response) ?? {}).sort(), `${name} ${status}`).toEqual(
          errorFields,
        );
      }
    }
  });

  it('lets every POST answer 422 idempotency_key_reused', () => {
    const posts = everyRoute.filter(
      ({ route, metadata }) => route.method === 'POST' && metadata.auth !== 'internal',
    );
    expect(posts.length).toBeGreaterThan(5);
    for (const { name, route } of posts) {
      expect(responseCodes(route.responses[422]), name).toContain('idempotency_key_reused');
    }
  });

  it('refuses what it does not list: every object of a body or a query is strict, at any depth', () => {
    const loose: string[] = [];
    for (const { name, route } of everyRoute) {
      const parts = { body: 'body' in route ? route.body : undefined, query: route.query };
      for (const [part, schema] of Object.entries(parts)) {
        if (isZodType(schema)) loose.push(...looseObjects(schema, `${name} ${part}`));
      }
    }
    expect(loose).toEqual([]);
  });

  it('declares what auth, role, inputs and the gateway can answer', () => {
    for (const { name, route } of publicRoutes) {
      const metadata = routeMetadata(route);
      const statuses = statusesOf(route);
      const expected = [
        ...(metadata.auth === 'key' ? [401] : []),
        ...(metadata.role === 'admin' ? [403] : []),
        ...(route.pathParams || route.query || hasBody(route) ? [400] : []),
        ...(hasBody(route) ? [413] : []),
        ...(route.path.startsWith('/v1/') ? V1 : [500]),
      ];
      expect(statuses, name).toEqual(expect.arrayContaining(expected));
      expect(statuses.includes(401), name).toBe(metadata.auth === 'key');
      // 403 without the admin role: what the body asks for is refused by role (a webhook's events).
      expect(statuses.includes(403), name).toBe(
        metadata.role === 'admin' || route.description?.includes('403 `forbidden`') === true,
      );
    }
  });

  it('needs a key for every /v1 operation but account creation, and none for meta', () => {
    for (const { name, route } of publicRoutes) {
      const open = !route.path.startsWith('/v1/') || name === 'createAccount';
      expect(routeMetadata(route).auth, name).toBe(open ? 'none' : 'key');
    }
  });

  it('gives the gateway accounts, messages, webhooks and meta, pets the catalogue, store the rest', () => {
    const owners = Object.fromEntries(
      Object.entries(contract).map(([group, router]) => [
        group,
        [...new Set(contractOperations(router).map(({ route }) => routeMetadata(route).service))],
      ]),
    );
    expect(owners).toEqual({
      pets: ['pets'],
      categories: ['pets'],
      orders: ['store'],
      inventory: ['store'],
      accounts: ['gateway'],
      messages: ['gateway'],
      webhooks: ['gateway'],
      meta: ['gateway'],
    });
  });

  it('never declares Authorization as a route header', () => {
    for (const { name, route } of everyRoute) {
      const shape = (route.headers as { shape?: object } | undefined)?.shape ?? {};
      expect(
        Object.keys(shape).map((header) => header.toLowerCase()),
        name,
      ).not.toContain('authorization');
    }
  });

  it('keeps internal routes out of the public contract and under /internal', () => {
    for (const { route } of publicRoutes) {
      expect(routeMetadata(route).auth).not.toBe('internal');
    }
    for (const { route } of internalRoutes) {
      expect(routeMetadata(route).auth).toBe('internal');
      expect(route.path.startsWith('/internal/')).toBe(true);
    }
  });
});
