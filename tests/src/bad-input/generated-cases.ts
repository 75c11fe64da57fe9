import { contract, contractOperations } from '@petstore/contract';
import {
  INT64_MAX,
  JSON_TYPE,
  MIB,
  PAST_INT64,
  error,
  success,
  type BadInputCase,
  type BodySource,
  type Caller,
  type Expected,
} from './case-types.js';
import type { Fixtures } from './fixtures.js';

const DEPTH = 10_000;

/** The fixture a path parameter names. */
const PLACEHOLDERS: Record<string, string> = {
  petId: '{pet}',
  categoryId: '{category}',
  orderId: '{order}',
  messageId: '{message}',
  keyId: '{key}',
  webhookId: '{webhook}',
  deliveryId: '{delivery}',
};

/** The prefix of each path id that is a string; the others are int64. */
const STRING_ID_PREFIXES: Record<string, string> = {
  keyId: 'key',
  messageId: 'msg',
  webhookId: 'wh',
  deliveryId: 'whd',
};

export interface ContractRoute {
  name: string;
  method: string;
  path: string;
  pathParams: string[];
  hasBody: boolean;
  hasQuery: boolean;
  /** The filters of a list query (beside `limit` and `cursor`), by kind. */
  filters: { name: string; int64: boolean }[];
  statuses: number[];
}

/** A schema as far as this suite needs it: something that parses. */
interface Parser {
  safeParse(value: unknown): { success: boolean };
}

/** The filters of a query schema: each field but the page's, an int64 id if it takes one. */
function filtersOf(query: unknown): { name: string; int64: boolean }[] {
  if (!isZodSchema(query)) return [];
  const schema = query as Parser & { shape?: Record<string, unknown> };
  return Object.keys(schema.shape ?? {})
    .filter((name) => name !== 'limit' && name !== 'cursor')
    .map((name) => ({
      name,
      int64:
        schema.safeParse({ [name]: INT64_MAX }).success &&
        !schema.safeParse({ [name]: PAST_INT64 }).success,
    }));
}

function isZodSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'safeParse' in value;
}

/**
 * The public operations this suite sends input to: `/v1`'s, which its hand-written cases address,
 * and the meta endpoints. `/v2` is derived from the same definitions (the contract tests compare).
 */
export const operationsUnderTest = contractOperations({
  ...contract.v1,
  meta: contract.meta,
});

/** Every operation under test, as this suite needs to know it. */
export function routesUnderTest(): ContractRoute[] {
  return operationsUnderTest.map(({ name, route }) => ({
    name,
    method: route.method,
    path: route.path,
    pathParams: [...route.path.matchAll(/:(\w+)/g)].map(
      (match) => match[1] ?? '',
    ),
    hasBody: 'body' in route && isZodSchema(route.body),
    hasQuery: 'query' in route && isZodSchema(route.query),
    filters: filtersOf('query' in route ? route.query : undefined),
    statuses: Object.keys(route.responses).map(Number),
  }));
}

function pathOf(
  route: ContractRoute,
  params: Record<string, string> = {},
): string {
  return route.path.replace(/:(\w+)/g, (_all, name: string) => {
    const value = params[name] ?? PLACEHOLDERS[name];
    if (value === undefined)
      throw new Error(`no fixture for :${name} of ${route.name}`);
    return value;
  });
}

/**
 * For each operation with a body: a body it accepts, and a field of it that holds a string or a
 * number (where objects and arrays are tried). A new operation with a body must be added here.
 */
export const VALID_BODIES: Record<
  string,
  { body: (f: Fixtures) => Record<string, unknown>; field: string }
> = {
  createPet: {
    body: (f) => ({ name: 'Bella', categoryId: f.categoryId }),
    field: 'name',
  },
  replacePet: {
    body: (f) => ({ name: 'Bella', categoryId: f.categoryId }),
    field: 'name',
  },
  updatePet: { body: () => ({ name: 'Bella' }), field: 'name' },
  createCategory: { body: () => ({ name: 'Cats' }), field: 'name' },
  replaceCategory: { body: () => ({ name: 'Cats' }), field: 'name' },
  placeOrder: {
    body: (f) => ({ petId: f.petId, quantity: 1 }),
    field: 'quantity',
  },
  updateOrder: { body: () => ({ complete: true }), field: 'shipDate' },
  setInventory: { body: () => ({ quantity: 3 }), field: 'quantity' },
  createAccount: {
    body: () => ({ email: 'someone.new@example.com' }),
    field: 'email',
  },
  sendMessage: { body: () => ({ message: 'Hi' }), field: 'message' },
  createWebhook: {
    body: (f) => ({ url: f.webhookUrl, events: ['order.created'] }),
    field: 'url',
  },
  updateWebhook: {
    body: () => ({ description: 'Orders' }),
    field: 'description',
  },
};

function validBodyOf(route: ContractRoute) {
  const valid = VALID_BODIES[route.name];
  if (!valid)
    throw new Error(
      `${route.name} has a body: give it a valid one in VALID_BODIES`,
    );
  return valid;
}

/** Sign-up is the one operation without a key; everything else goes as the admin. */
function callerOf(route: ContractRoute): Caller {
  return route.name === 'createAccount' ? 'anonymous' : 'admin';
}

const nested = (depth: number, open: string, close: string, inner = '1') =>
  open.repeat(depth) + inner + close.repeat(depth);

/** Every operation with a body: the body's syntax, type, size, depth and keys go wrong. */
function bodyCases(route: ContractRoute): BadInputCase[] {
  const { body: valid, field } = validBodyOf(route);
  const text = (f: Fixtures) => JSON.stringify(valid(f));
  const withBody = (
    name: string,
    body: BodySource,
    expected: Expected,
    headers: Record<string, string> = JSON_TYPE,
  ): BadInputCase => ({
    name: `${route.name}: ${name}`,
    operation: route.name,
    method: route.method,
    path: pathOf(route),
    as: callerOf(route),
    headers,
    body,
    expected,
  });
  const changed =
    (change: (body: Record<string, unknown>) => unknown) => (f: Fixtures) =>
      JSON.stringify(change(valid(f)));
  const fieldSetTo = (raw: string) => (f: Fixtures) =>
    JSON.stringify({ ...valid(f), [field]: 0 }).replace(
      `"${field}":0`,
      `"${field}":${raw}`,
    );
  const invalidJson = error('invalid_json');
  const wrongType = error('unsupported_content_type');
  const invalid = error('validation_failed');
  return [
    withBody('malformed JSON', `{"${field}": `, invalidJson),
    withBody(
      'JSON cut off halfway',
      (f) => text(f).slice(0, text(f).length >> 1),
      invalidJson,
    ),
    withBody(
      'single-quoted JSON',
      (f) => text(f).replaceAll('"', "'"),
      invalidJson,
    ),
    withBody(
      'a trailing comma',
      (f) => text(f).replace(/}$/, ',}'),
      invalidJson,
    ),
    withBody('a bare word', 'hello', invalidJson),
    withBody('two JSON documents', (f) => text(f) + text(f), invalidJson),
    withBody(
      'no Content-Type',
      (f) => new TextEncoder().encode(text(f)),
      wrongType,
      {},
    ),
    withBody('text/plain', text, wrongType, { 'content-type': 'text/plain' }),
    withBody('a form', text, wrongType, {
      'content-type': 'application/x-www-form-urlencoded',
    }),
    withBody('multipart', text, wrongType, {
      'content-type': 'multipart/form-data; boundary=x',
    }),
    withBody('JSON in latin1', text, wrongType, {
      'content-type': 'application/json; charset=latin1',
    }),
    withBody('JSON in UTF-16', text, wrongType, {
      'content-type': 'application/json; charset=utf-16',
    }),
    withBody('application/json and no body', '', invalid),
    withBody('an array for the object', (f) => `[${text(f)}]`, invalid),
    withBody('null for the object', 'null', invalid),
    withBody('a string for the object', '"hello"', invalid),
    withBody('a number for the object', '42', invalid),
    withBody(
      'a body of 1 MiB',
      (f) => JSON.stringify({ ...valid(f), pad: 'x'.repeat(MIB) }),
      {
        ...error('payload_too_large'),
      },
    ),
    withBody(`arrays nested ${DEPTH} deep`, nested(DEPTH, '[', ']'), invalid),
    withBody(
      `objects nested ${DEPTH} deep for ${field}`,
      fieldSetTo(nested(DEPTH, '{"a":', '}')),
      {
        ...invalid,
      },
    ),
    withBody(
      `an operator object for ${field}`,
      fieldSetTo('{"$gt": ""}'),
      invalid,
    ),
    withBody(`an array for ${field}`, fieldSetTo('["a", 1]'), invalid),
    withBody(`true for ${field}`, fieldSetTo('true'), invalid),
    withBody(
      'a $-prefixed key beside valid fields',
      changed((b) => ({ ...b, $set: { role: 'admin' } })),
      invalid,
    ),
    withBody(
      'a dotted key beside valid fields',
      changed((b) => ({ ...b, 'a.b': 1 })),
      invalid,
    ),
    withBody(
      'a $-prefixed key deep in an unknown property',
      changed((b) => ({
        ...b,
        extra: [{ deeper: { $where: 'sleep(1000)' } }],
      })),
      invalid,
    ),
    withBody(
      'a lone surrogate in an unknown property',
      changed((b) => ({ ...b, note: 'x\ud800' })),
      invalid,
    ),
    withBody(
      'a $-prefixed key under __proto__',
      (f) => text(f).replace(/}$/, ',"__proto__":{"$ne":null}}'),
      invalid,
    ),
  ];
}

/** Path ids of an operation: in range but never issued (404), or not ids at all (400). */
interface IdSegments {
  neverIssued: string[];
  notIds: string[];
}

const INT64_IDS: IdSegments = {
  neverIssued: [INT64_MAX, '0', '9007199254740993'],
  // Past int64, twenty digits, signs, a fraction, an exponent, hex, a leading space, words, a NUL,
  // an emoji, an encoded slash and an operator object.
  notIds: [
    PAST_INT64,
    ...'99999999999999999999 -1 -0 1.5 1e3 0x1F +1 %201 abc null 1%00 %F0%9F%90%B6 1%2F2'.split(
      ' ',
    ),
    encodeURIComponent('{"$gt":""}'),
  ],
};

function stringIds(prefix: string): IdSegments {
  const other = prefix === 'key' ? 'msg' : 'key';
  return {
    neverIssued: [`${prefix}_neverIssued0`],
    // The prefix alone or with 65 characters, another prefix, an upper-case one, a hyphen, a NUL,
    // an emoji, an int64, an encoded ../ and an operator object.
    notIds: [
      `${prefix}_`,
      `${prefix}_${'a'.repeat(65)}`,
      `${other}_abc`,
      `${prefix.toUpperCase()}_abc`,
      `${prefix}_a-b`,
      `${prefix}_a%00`,
      `${prefix}_%F0%9F%90%B6`,
      INT64_MAX,
      `..%2F${prefix}_abc`,
      encodeURIComponent('{"$gt":""}'),
    ],
  };
}

/** What an operation answers for an id that is in range but was never issued. */
function neverIssued(route: ContractRoute): Expected {
  // Stock is created for a pet that exists: the operation has no 404, its pet is unknown.
  if (route.name === 'setInventory') return error('unknown_pet');
  if (!route.statuses.includes(404))
    throw new Error(`${route.name} declares no 404`);
  return error('not_found');
}

/** Every operation with a path id: the id goes out of range, out of shape, or names nothing. */
function idCases(route: ContractRoute): BadInputCase[] {
  const [param] = route.pathParams;
  if (param === undefined) return [];
  const prefix = STRING_ID_PREFIXES[param];
  const { neverIssued: inRange, notIds } =
    prefix === undefined ? INT64_IDS : stringIds(prefix);
  const valid = route.hasBody ? validBodyOf(route).body : undefined;
  const caseOf = (
    segment: string,
    what: string,
    expected: Expected,
  ): BadInputCase => ({
    name: `${route.name}: ${param} is ${what} (${segment.slice(0, 24)})`,
    operation: route.name,
    method: route.method,
    path: pathOf(route, { [param]: segment }),
    as: callerOf(route),
    ...(valid && {
      headers: JSON_TYPE,
      body: (f: Fixtures) => JSON.stringify(valid(f)),
    }),
    expected,
  });
  return [
    ...inRange.map((segment) =>
      caseOf(segment, 'never issued', neverIssued(route)),
    ),
    ...notIds.map((segment) =>
      caseOf(segment, 'not an id', error('validation_failed')),
    ),
  ];
}

/** Every list: page size and cursor go wrong; unknown parameters are refused. */
function queryCases(route: ContractRoute): BadInputCase[] {
  if (!route.hasQuery) return [];
  const invalid = error('validation_failed');
  const values: [string, string, Expected][] = [
    ['limit=0', 'limit=0', invalid],
    ['limit=101', 'limit=101', invalid],
    ['a negative limit', 'limit=-1', invalid],
    ['a fractional limit', 'limit=1.5', invalid],
    ['a word for limit', 'limit=abc', invalid],
    ['an empty limit', 'limit=', invalid],
    ['limit twice', 'limit=1&limit=2', invalid],
    ['limit past int64', `limit=${PAST_INT64}`, invalid],
    ['a cursor the API never gave', 'cursor=garbage', invalid],
    ['a cursor of 513 characters', `cursor=${'A'.repeat(513)}`, invalid],
    ['an empty cursor', 'cursor=', invalid],
    ['an operator in brackets (an unknown parameter)', 'limit[$gt]=0', invalid],
    ['an unknown $-parameter', '$where=1', invalid],
    ['an unknown parameter', 'colour=brown', invalid],
  ];
  for (const { name, int64 } of route.filters) {
    const filterValues: [string, string, Expected][] = int64
      ? [
          [
            `${name} the largest int64 (no match)`,
            `${name}=${INT64_MAX}`,
            success(200),
          ],
          [
            `${name} one past the largest int64`,
            `${name}=${PAST_INT64}`,
            invalid,
          ],
          [`a negative ${name}`, `${name}=-1`, invalid],
          [`${name} twice`, `${name}=1&${name}=2`, invalid],
        ]
      : [
          [`a ${name} no one has`, `${name}=bogus`, invalid],
          [`an upper-case ${name}`, `${name}=TRUE&${name}=AVAILABLE`, invalid],
          [`an empty ${name}`, `${name}=`, invalid],
        ];
    filterValues.push([
      `an operator on ${name} (an unknown parameter)`,
      `${name}[$ne]=x`,
      invalid,
    ]);
    values.push(...filterValues);
  }
  return values.map(([what, query, expected]) => ({
    name: `${route.name}: ${what}`,
    operation: route.name,
    method: 'GET',
    path: `${pathOf(route)}?${query}`,
    expected,
  }));
}

/** Generated from the contract: every operation with a body, a path id or a query. */
export function generatedCases(): BadInputCase[] {
  return routesUnderTest().flatMap((route) => [
    ...(route.hasBody ? bodyCases(route) : []),
    ...idCases(route),
    ...queryCases(route),
  ]);
}
