import { isZodType, type AppRoute } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { contractOperations } from './contract-operations.js';
import { contract, internalContract } from './contract.js';
import { ErrorSchema, errorStatus, responseCodes } from './errors.js';
import { innerSchema, objectShape } from './zod-unwrap.js';
import { z } from './zod.js';
import { routeMetadata } from './contract-operations.js';

/** What every operation of a version can answer on its way through the gateway. */
const THROUGH = [429, 500, 502, 503, 504];

/** API.md's operations within a version, with every status it gives each one, Errors included. */
const versioned: [method: string, path: string, statuses: number[]][] = [
  ['POST', '/accounts', [201, 400, 409, 413, 415, ...THROUGH]],
  ['GET', '/accounts/me', [200, 401, ...THROUGH]],
  ['POST', '/accounts/me/keys', [201, 401, ...THROUGH]],
  ['GET', '/accounts/me/keys', [200, 400, 401, ...THROUGH]],
  ['DELETE', '/accounts/me/keys/:keyId', [204, 400, 401, 404, ...THROUGH]],
  ['GET', '/pets', [200, 400, 401, ...THROUGH]],
  ['POST', '/pets', [201, 400, 401, 403, 413, 415, 422, ...THROUGH]],
  ['GET', '/pets/:petId', [200, 400, 401, 404, ...THROUGH]],
  ['PUT', '/pets/:petId', [200, 400, 401, 403, 404, 413, 415, 422, ...THROUGH]],
  [
    'PATCH',
    '/pets/:petId',
    [200, 400, 401, 403, 404, 413, 415, 422, ...THROUGH],
  ],
  ['DELETE', '/pets/:petId', [204, 400, 401, 403, 404, ...THROUGH]],
  ['GET', '/categories', [200, 400, 401, ...THROUGH]],
  ['POST', '/categories', [201, 400, 401, 403, 409, 413, 415, ...THROUGH]],
  ['GET', '/categories/:categoryId', [200, 400, 401, 404, ...THROUGH]],
  [
    'PUT',
    '/categories/:categoryId',
    [200, 400, 401, 403, 404, 409, 413, 415, ...THROUGH],
  ],
  [
    'DELETE',
    '/categories/:categoryId',
    [204, 400, 401, 403, 404, 409, ...THROUGH],
  ],
  ['GET', '/store/orders', [200, 400, 401, ...THROUGH]],
  ['POST', '/store/orders', [201, 400, 401, 409, 413, 415, 422, ...THROUGH]],
  ['GET', '/store/orders/:orderId', [200, 400, 401, 404, ...THROUGH]],
  [
    'PATCH',
    '/store/orders/:orderId',
    [200, 400, 401, 403, 404, 413, 415, ...THROUGH],
  ],
  ['DELETE', '/store/orders/:orderId', [204, 400, 401, 404, 409, ...THROUGH]],
  ['GET', '/store/inventory', [200, 400, 401, ...THROUGH]],
  ['GET', '/store/inventory/:petId', [200, 400, 401, 404, ...THROUGH]],
  [
    'PUT',
    '/store/inventory/:petId',
    [200, 400, 401, 403, 413, 415, 422, ...THROUGH],
  ],
  ['POST', '/messages', [202, 400, 401, 413, 415, 422, ...THROUGH]],
  ['GET', '/messages/:messageId', [200, 400, 401, 404, ...THROUGH]],
  ['POST', '/webhooks', [201, 400, 401, 403, 422, ...THROUGH]],
  ['GET', '/webhooks', [200, 400, 401, ...THROUGH]],
  ['GET', '/webhooks/:webhookId', [200, 400, 401, 404, ...THROUGH]],
  ['PATCH', '/webhooks/:webhookId', [200, 400, 401, 403, 404, 422, ...THROUGH]],
  ['DELETE', '/webhooks/:webhookId', [204, 400, 401, 404, ...THROUGH]],
  ['POST', '/webhooks/:webhookId/secret', [201, 400, 401, 404, ...THROUGH]],
  ['GET', '/webhooks/:webhookId/deliveries', [200, 400, 401, 404, ...THROUGH]],
  [
    'POST',
    '/webhooks/:webhookId/deliveries/:deliveryId/retry',
    [202, 400, 401, 404, ...THROUGH],
  ],
  [
    'POST',
    '/webhooks/:webhookId/test',
    [202, 400, 401, 404, 409, 422, ...THROUGH],
  ],
];

/** API.md's operations: the meta endpoints, and each versioned one under `/v2` and `/v1`. */
const specified: [method: string, path: string, statuses: number[]][] = [
  ['GET', '/health', [200]],
  ['GET', '/ready', [200, 503]],
  ['GET', '/openapi.json', [200]],
  ['GET', '/docs', [200]],
  ...versioned.flatMap(
    ([method, path, statuses]): (typeof versioned)[number][] => [
      [method, `/v2${path}`, statuses],
      // Only /v1 retires its deprecated read at the sunset.
      [
        method,
        `/v1${path}`,
        `${method} ${path}` === 'GET /pets/:petId'
          ? [...statuses, 410]
          : statuses,
      ],
    ],
  ),
];

const publicRoutes = contractOperations(contract);
const internalRoutes = contractOperations(internalContract);

function findRoute(method: string, path: string): AppRoute | undefined {
  return publicRoutes.find(
    ({ route }) => route.method === method && route.path === path,
  )?.route;
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
      ...Object.entries(shape).flatMap(([key, field]) =>
        looseObjects(field, `${at}.${key}`),
      ),
    ];
  }
  if (schema instanceof z.ZodArray)
    return looseObjects(schema.element as z.ZodTypeAny, `${at}[]`);
  if (schema instanceof z.ZodUnion) {
    return (schema.options as z.ZodTypeAny[]).flatMap((option) =>
      looseObjects(option, at),
    );
  }
  return [];
}

describe('the contract against API.md', () => {
  it.each(specified)(
    'has %s %s with every status API.md gives it',
    (method, path, statuses) => {
      const route = findRoute(method, path);
      expect(route && statusesOf(route), `${method} ${path}`).toEqual(
        expect.arrayContaining(statuses),
      );
    },
  );

  it('has no public operation API.md does not list', () => {
    const listed = new Set(
      specified.map(([method, path]) => `${method} ${path}`),
    );
    const extra = publicRoutes
      .map(({ route }) => `${route.method} ${route.path}`)
      .filter((operation) => !listed.has(operation));
    expect(extra).toEqual([]);
  });

  it('marks GET /v1/pets/{petId} deprecated with its sunset date, naming its /v2 successor', () => {
    const route = contract.v1.pets.getPet;
    expect(route.deprecated).toBe(true);
    expect(routeMetadata(route)).toMatchObject({
      sunset: '2027-06-30T00:00:00Z',
      successor: '/v2/pets/:petId',
    });
    expect(route.description).toContain('`GET /v2/pets/{petId}`');
  });

  it('serves GET /v2/pets/{petId} as the current read: not deprecated, no sunset, never 410', () => {
    const route = contract.v2.pets.getPet;
    expect('deprecated' in route).toBe(false);
    expect(routeMetadata(route).sunset).toBeUndefined();
    expect(routeMetadata(route).successor).toBeUndefined();
    expect(statusesOf(route)).not.toContain(410);
    expect(route.description).not.toMatch(/deprecat/i);
  });

  it('deprecates no operation but GET /v1/pets/{petId}', () => {
    const deprecated = publicRoutes.filter(
      ({ route }) => route.deprecated === true,
    );
    expect(
      deprecated.map(({ route }) => `${route.method} ${route.path}`),
    ).toEqual(['GET /v1/pets/:petId']);
  });

  it('derives /v1 and /v2 from one definition: the same operations, apart from the deprecation', () => {
    const shape = ({ name, group, route }: (typeof publicRoutes)[number]) => ({
      name,
      group,
      method: route.method,
      path: route.path.replace(/^\/v[12]\//, '/'),
      body: 'body' in route ? route.body : undefined,
      query: route.query,
    });
    const inVersion = (version: string) =>
      publicRoutes
        .filter((operation) => operation.version === version)
        .map(shape);
    expect(inVersion('v2')).toHaveLength(35);
    expect(inVersion('v1')).toEqual(inVersion('v2'));
  });

  it('hides the try-it panel of GET /v1/store/orders and GET /v2/store/orders', () => {
    expect(routeMetadata(contract.v1.orders.listOrders).hideTryItPanel).toBe(
      true,
    );
    expect(routeMetadata(contract.v2.orders.listOrders).hideTryItPanel).toBe(
      true,
    );
  });

  it('marks the key-management operations experimental, messages and webhooks beta', () => {
    const withStability = (stability: string) =>
      publicRoutes
        .filter(({ route }) => routeMetadata(route).stability === stability)
        .map(({ name }) => name)
        .sort();
    const webhookOperations = Object.keys(contract.v2.webhooks);
    expect(webhookOperations).toHaveLength(9);
    const twice = (names: string[]) => [...names, ...names].sort();
    expect(withStability('experimental')).toEqual(
      twice(['createKey', 'listKeys', 'revokeKey']),
    );
    expect(withStability('beta')).toEqual(
      twice(['getMessage', 'sendMessage', ...webhookOperations]),
    );
  });

  it.each([
    ['POST /v2/store/orders', contract.v2.orders.placeOrder.headers],
    ['POST /v2/messages', contract.v2.messages.sendMessage.headers],
    ['POST /v2/pets', contract.v2.pets.createPet.headers],
    ['POST /v2/categories', contract.v2.categories.createCategory.headers],
    ['POST /v2/accounts', contract.v2.accounts.createAccount.headers],
    ['POST /v2/accounts/me/keys', contract.v2.accounts.createKey.headers],
    ['POST /v2/webhooks', contract.v2.webhooks.createWebhook.headers],
    [
      'POST /v2/webhooks/{webhookId}/secret',
      contract.v2.webhooks.rotateWebhookSecret.headers,
    ],
    [
      'POST /v2/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
      contract.v2.webhooks.retryWebhookDelivery.headers,
    ],
    [
      'POST /v2/webhooks/{webhookId}/test',
      contract.v2.webhooks.testWebhook.headers,
    ],
    ['POST /v1/store/orders', contract.v1.orders.placeOrder.headers],
    ['POST /v1/messages', contract.v1.messages.sendMessage.headers],
  ])(
    'declares the optional Idempotency-Key header of %s',
    (_operation, headers) => {
      expect(headers.parse({})).toEqual({});
      expect(
        headers.safeParse({ 'idempotency-key': 'x'.repeat(255) }).success,
      ).toBe(true);
      expect(headers.safeParse({ 'idempotency-key': '' }).success).toBe(false);
      expect(
        headers.safeParse({ 'idempotency-key': 'x'.repeat(256) }).success,
      ).toBe(false);
    },
  );

  it('answers /docs as HTML', () => {
    expect(contract.meta.docs.responses[200]).toMatchObject({
      contentType: 'text/html',
    });
  });
});

describe('rules every route follows', () => {
  const everyRoute = [...publicRoutes, ...internalRoutes];

  it('gives every route its metadata', () => {
    for (const { route } of everyRoute) {
      expect(() => routeMetadata(route)).not.toThrow();
    }
  });

  it('gives every route a unique key within its version and a unique method and path', () => {
    const keys = publicRoutes.map(({ name, version }) => `${version} ${name}`);
    expect(new Set(keys).size).toBe(keys.length);
    const operations = everyRoute.map(
      ({ route }) => `${route.method} ${route.path}`,
    );
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
      for (const status of statusesOf(route).filter(
        (status) => status >= 400,
      )) {
        const response = route.responses[status];
        const codes = responseCodes(response);
        expect(codes.length, `${name} ${status}`).toBeGreaterThan(0);
        expect(
          new Set(codes.map((code) => errorStatus[code])),
          `${name} ${status}`,
        ).toEqual(new Set([status]));
        expect(
          Object.keys(objectShape(response) ?? {}).sort(),
          `${name} ${status}`,
        ).toEqual(errorFields);
      }
    }
  });

  it('lets every POST answer 422 idempotency_key_reused', () => {
    const posts = everyRoute.filter(
      ({ route, metadata }) =>
        route.method === 'POST' && metadata.auth !== 'internal',
    );
    expect(posts.length).toBeGreaterThan(5);
    for (const { name, route } of posts) {
      expect(responseCodes(route.responses[422]), name).toContain(
        'idempotency_key_reused',
      );
    }
  });

  it('refuses what it does not list: every object of a body or a query is strict, at any depth', () => {
    const loose: string[] = [];
    for (const { name, route } of everyRoute) {
      const parts = {
        body: 'body' in route ? route.body : undefined,
        query: route.query,
      };
      for (const [part, schema] of Object.entries(parts)) {
        if (isZodType(schema))
          loose.push(...looseObjects(schema, `${name} ${part}`));
      }
    }
    expect(loose).toEqual([]);
  });

  it('declares what auth, role, inputs and the gateway can answer', () => {
    for (const { name, route, version } of publicRoutes) {
      const metadata = routeMetadata(route);
      const statuses = statusesOf(route);
      const expected = [
        ...(metadata.auth === 'key' ? [401] : []),
        ...(metadata.role === 'admin' ? [403] : []),
        ...(route.pathParams || route.query || hasBody(route) ? [400] : []),
        ...(hasBody(route) ? [413] : []),
        ...(version === undefined ? [500] : THROUGH),
      ];
      expect(statuses, name).toEqual(expect.arrayContaining(expected));
      expect(statuses.includes(401), name).toBe(metadata.auth === 'key');
      // 403 without the admin role: what the body asks for is refused by role (a webhook's events).
      expect(statuses.includes(403), name).toBe(
        metadata.role === 'admin' ||
          route.description?.includes('403 `forbidden`') === true,
      );
    }
  });

  it('needs a key for every /v1 and /v2 operation but account creation, and none for meta', () => {
    for (const { name, route, version } of publicRoutes) {
      const open = version === undefined || name === 'createAccount';
      expect(routeMetadata(route).auth, name).toBe(open ? 'none' : 'key');
    }
  });

  it('gives the gateway accounts, messages, webhooks and meta, pets the catalogue, store the rest', () => {
    const owners: Record<string, string[]> = {};
    for (const { group, route } of publicRoutes) {
      const services = (owners[group] ??= []);
      const { service } = routeMetadata(route);
      if (!services.includes(service)) services.push(service);
    }
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
      const shape =
        (route.headers as { shape?: object } | undefined)?.shape ?? {};
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
