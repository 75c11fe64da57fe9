/**
 * Property-based tests through the gateway, driven by the contract's zod schemas (fast-check).
 *
 * - Valid requests, built by arbitraries derived from each operation's schemas, get a status the
 *   operation declares (never a 5xx), a body its response schema accepts, and a 400 only for a
 *   cursor the API never gave out.
 * - Junk (random JSON and serialised values as bodies, random strings as path ids, random query
 *   strings) never gets a 5xx, always gets the Error shape, and gets 400 `validation_failed`
 *   exactly when the operation's schema refuses the input.
 *
 * Runs are bounded (`PROPERTY_RUNS`, 40 a property by default); a failure prints the seed and the
 * path of its counterexample, and `PROPERTY_SEED=<seed> PROPERTY_PATH=<path>` replays it.
 */
import { parse as parseQuery } from 'node:querystring';
import {
  ErrorSchema,
  objectShape,
  unwrapSchema,
  type ContractOperation,
} from '@petstore/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callHttp, type HttpAnswer } from '@petstore/testkit';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';
import { createFixtures, type Fixtures } from './fixtures.js';
import { operationsUnderTest, VALID_BODIES } from './generated-cases.js';
import {
  arbitraryOf,
  validArbitraryOf,
  type ArbitraryOptions,
} from './zod-arbitrary.js';

/** 40 runs a property: about 2 000 requests in all, some 20 s; `PROPERTY_RUNS=200` digs deeper. */
const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 40);
const { PROPERTY_SEED, PROPERTY_PATH } = process.env;
/** `PROPERTY_SEED` and `PROPERTY_PATH` (both printed with a counterexample) replay a failure. */
const runs: fc.Parameters<unknown> = {
  numRuns: NUM_RUNS,
  ...(PROPERTY_SEED !== undefined && { seed: Number(PROPERTY_SEED) }),
  ...(PROPERTY_PATH !== undefined && { path: PROPERTY_PATH }),
};

interface Operation extends ContractOperation {
  params?: z.ZodTypeAny;
  query?: z.ZodTypeAny;
  body?: z.ZodTypeAny;
  headers?: z.ZodTypeAny;
}

const schemaOf = (value: unknown) =>
  value instanceof z.ZodType ? value : undefined;

/** Every operation of the contract, with its request schemas; deletes last, they remove things. */
const operations: Operation[] = operationsUnderTest
  .map((operation) => {
    const { route } = operation;
    return {
      ...operation,
      params: schemaOf(route.pathParams),
      query: schemaOf(route.query),
      body: schemaOf('body' in route ? route.body : undefined),
      headers: schemaOf(route.headers),
    };
  })
  .sort(
    (a, b) =>
      Number(a.route.method === 'DELETE') - Number(b.route.method === 'DELETE'),
  );

const withInput = operations.filter((op) => op.params ?? op.query ?? op.body);

interface Request {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, unknown>;
}

let fixtures: Fixtures;

// The fixtures' webhook goes to a loopback receiver.
const api = testStackForFile({
  ...unthrottled,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
});

beforeAll(async () => {
  fixtures = await createFixtures(api);
});

afterAll(async () => {
  await fixtures.receiver.down();
});

/** Whose key goes with an operation: none for sign-up, the customer's for its own keys and messages. */
function apiKeyFor(op: Operation): string | undefined {
  if (op.name === 'createAccount') return undefined;
  return op.metadata.service === 'gateway'
    ? fixtures.customer.apiKey
    : fixtures.adminApiKey;
}

function pathOf(op: Operation, params: Record<string, unknown> = {}): string {
  return op.route.path.replace(/:(\w+)/g, (_all, name: string) =>
    encodeURIComponent(String(params[name])),
  );
}

function queryString(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of (Array.isArray(value) ? value : [value]) as (
      string | number | boolean
    )[]) {
      if (item !== undefined) search.append(name, String(item));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** Sends a request to an operation; `body` is sent as it is when a string, else as JSON. */
function send(
  op: Operation,
  request: Request,
  rawBody?: string,
  rawQuery?: string,
) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {}) as [
    string,
    string,
  ][]) {
    if (value !== undefined) headers[name] = value;
  }
  const body = rawBody ?? (op.body ? JSON.stringify(request.body) : undefined);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const search = rawQuery ?? queryString(request.query);
  return callHttp(
    api.url,
    op.route.method,
    `${pathOf(op, request.params)}${search}`,
    {
      apiKey: apiKeyFor(op),
      body,
      headers,
      signal: AbortSignal.timeout(30_000),
    },
  );
}

function declaredStatuses(op: Operation): number[] {
  return Object.keys(op.route.responses).map(Number);
}

/** What holds for every answer: never a 5xx; a declared status; errors in the Error shape. */
function expectDocumented(op: Operation, answer: HttpAnswer): void {
  expect(answer.status, 'never a 5xx').toBeLessThan(500);
  expect(
    declaredStatuses(op),
    `${op.name} declares ${answer.status}`,
  ).toContain(answer.status);
  if (answer.status >= 400) {
    expect(answer.headers.get('content-type')).toMatch(
      /^application\/json(;|$)/,
    );
    const parsed = ErrorSchema.safeParse(answer.body);
    expect(parsed.success, `an Error: ${JSON.stringify(answer.body)}`).toBe(
      true,
    );
    expect(parsed.data?.status).toBe(answer.status);
  }
}

/** A 400 for input the schemas accept: only a cursor the API never gave out may cause one. */
function expectNotRefusedAsInvalid(answer: HttpAnswer): void {
  if (answer.status !== 400) return;
  const details =
    (answer.body as { details?: { path: string }[] }).details ?? [];
  expect(
    details.length > 0 &&
      details.every((detail) => detail.path === 'query.cursor'),
    `refused input the contract accepts: ${JSON.stringify(answer.body)}`,
  ).toBe(true);
}

function expectValidationFailed(answer: HttpAnswer): void {
  expect({
    status: answer.status,
    code: (answer.body as { code?: unknown }).code,
  }).toEqual({
    status: 400,
    code: 'validation_failed',
  });
}

function knownIds(): ArbitraryOptions['known'] {
  return {
    petId: [fixtures.petId],
    categoryId: [fixtures.categoryId],
    orderId: [fixtures.orderId],
    messageId: [fixtures.messageId],
    webhookId: [fixtures.webhookId],
    deliveryId: [fixtures.deliveryId],
    url: [fixtures.webhookUrl],
  };
}

function validRequest(op: Operation): fc.Arbitrary<Request> {
  const known = knownIds();
  const part = (
    schema: z.ZodTypeAny | undefined,
    text: ArbitraryOptions['text'] = 'unicode',
  ) =>
    schema ? validArbitraryOf(schema, { known, text }) : fc.constant(undefined);
  return fc.record({
    params: part(op.params),
    query: part(op.query),
    body: part(op.body),
    headers: part(op.headers, 'header'),
  }) as fc.Arbitrary<Request>;
}

describe('valid requests built from the contract’s schemas', () => {
  it.each(withInput)(
    '$name: a declared status, a body its schema accepts, never a 5xx',
    async (op) => {
      await fc.assert(
        fc.asyncProperty(validRequest(op), async (request) => {
          const answer = await send(op, request);
          expectDocumented(op, answer);
          expectNotRefusedAsInvalid(answer);
          const response = schemaOf(
            (op.route.responses as Record<number, unknown>)[answer.status],
          );
          if (answer.status < 400 && response) {
            const parsed = response.safeParse(answer.body);
            expect(
              parsed.success,
              `the ${answer.status} body: ${JSON.stringify(answer.body)}`,
            ).toBe(true);
          }
        }),
        runs,
      );
    },
  );
});

/** JSON texts of every kind, objects near the schema's shape among them. */
function junkBody(op: Operation): fc.Arbitrary<string> {
  const shape = Object.keys(objectShape(op.body) ?? {});
  const key = fc.oneof(
    fc.constantFrom(
      ...shape,
      '$gt',
      '$where',
      'a.b',
      '__proto__',
      'constructor',
      'prototype',
    ),
    fc.string(),
  );
  return fc.oneof(
    fc.json(),
    fc.anything().map((value) => JSON.stringify(value) ?? ''),
    fc
      .dictionary(key, fc.jsonValue(), { maxKeys: 5 })
      .map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary' }),
  );
}

/** Path parameters that name the fixtures, so only the body can be wrong. */
function fixtureParams(op: Operation): Record<string, unknown> {
  const ids: Record<string, unknown> = {
    petId: fixtures.petId,
    categoryId: fixtures.categoryId,
    orderId: fixtures.orderId,
    messageId: fixtures.messageId,
    keyId: fixtures.customer.keyId,
    webhookId: fixtures.webhookId,
    deliveryId: fixtures.deliveryId,
  };
  return Object.fromEntries(
    Object.keys(objectShape(op.params) ?? {}).map((name) => [name, ids[name]]),
  );
}

/** A body as the service reads it: UTF-8 on the wire (a lone surrogate becomes U+FFFD), BOM ignored. */
function asRead(text: string): string {
  return new TextDecoder().decode(new TextEncoder().encode(text));
}

function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
  } catch {
    return undefined;
  }
}

const LONE_SURROGATE = /\p{Surrogate}/u;

describe('junk bodies', () => {
  it.each(operations.filter((op) => op.body))(
    '$name: the Error shape, never a 5xx, 400 exactly when the schema refuses the body',
    async (op) => {
      const body = op.body as z.ZodTypeAny;
      await fc.assert(
        fc.asyncProperty(junkBody(op), async (junk) => {
          const text = asRead(junk);
          const answer = await send(op, { params: fixtureParams(op) }, text);
          expectDocumented(op, answer);
          const json = text === '' ? { value: undefined } : parsedJson(text);
          if (json === undefined) {
            expect((answer.body as { code?: unknown }).code).toBe(
              'invalid_json',
            );
          } else if (!body.safeParse(json.value).success) {
            expectValidationFailed(answer);
          } else {
            expect(answer.status).not.toBe(400);
          }
        }),
        runs,
      );
    },
  );
});

/** A body the operation accepts, for requests where only the path is wrong. */
function validBodyFor(op: Operation): string | undefined {
  const valid = VALID_BODIES[op.name];
  return valid ? JSON.stringify(valid.body(fixtures)) : undefined;
}

describe('junk path ids', () => {
  it.each(operations.filter((op) => op.params))(
    '$name: the Error shape, never a 5xx, 400 exactly when the id is not one',
    async (op) => {
      const params = op.params as z.ZodTypeAny;
      const [name = ''] = Object.keys(objectShape(params) ?? {});
      // '', '.' and '..' would change the path itself: the table of bad input has those.
      const segment = fc
        .oneof(
          fc.string({ unit: 'binary' }),
          fc.stringMatching(/^-?[0-9]{1,21}$/),
        )
        .filter(
          (text) =>
            !LONE_SURROGATE.test(text) && !['', '.', '..'].includes(text),
        );
      await fc.assert(
        fc.asyncProperty(segment, async (id) => {
          // Any other parameter names its fixture, so only this one can be wrong.
          const request = { ...fixtureParams(op), [name]: id };
          const answer = await send(op, { params: request }, validBodyFor(op));
          expectDocumented(op, answer);
          if (params.safeParse(request).success)
            expect(answer.status).not.toBe(400);
          else expectValidationFailed(answer);
        }),
        runs,
      );
    },
  );
});

/** The query as the services read it: repeated names as arrays, one value wrapped where the schema wants an array. */
function queryAsRead(
  schema: z.ZodTypeAny,
  search: string,
): Record<string, unknown> {
  const parsed = parseQuery(search.replace(/^\?/, ''));
  const shape = objectShape(schema) ?? {};
  return Object.fromEntries(
    Object.entries(parsed).map(([name, value]) => {
      const field = shape[name];
      const wrap =
        typeof value === 'string' &&
        field &&
        unwrapSchema(field) instanceof z.ZodArray;
      return [name, wrap ? [value] : value];
    }),
  );
}

describe('junk queries', () => {
  it.each(operations.filter((op) => op.query))(
    '$name: 200, or 400 validation_failed exactly when the schema refuses the query',
    async (op) => {
      const query = op.query as z.ZodTypeAny;
      const name = fc.oneof(
        fc.constantFrom(
          ...Object.keys(objectShape(query) ?? {}),
          '$where',
          'limit[$gt]',
          '__proto__',
        ),
        fc.string(),
      );
      const value = fc.oneof(
        fc.string(),
        arbitraryOf(z.string().regex(/^-?[0-9]{1,20}(\.[0-9])?$/)),
      );
      const search = fc
        .array(fc.tuple(name, value), { maxLength: 4 })
        .map(
          (pairs) =>
            `?${new URLSearchParams(pairs as [string, string][]).toString()}`,
        );
      await fc.assert(
        fc.asyncProperty(search, async (text) => {
          const answer = await send(
            op,
            { params: fixtureParams(op) },
            undefined,
            text,
          );
          expectDocumented(op, answer);
          if (query.safeParse(queryAsRead(query, text)).success)
            expectNotRefusedAsInvalid(answer);
          else expectValidationFailed(answer);
        }),
        runs,
      );
    },
  );
});
