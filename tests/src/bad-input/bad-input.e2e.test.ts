/**
 * Bad input, table-driven, through the gateway: every operation of the contract is sent what a
 * careless or hostile client sends. Each case states the status and Error code it must get; every
 * answer is checked for the Error shape and for never being a 5xx; afterwards the databases must
 * hold exactly what they held before (nothing a refused request tried to write), and every
 * process must still be up.
 *
 * Requests that break HTTP itself (bare CR/LF or NUL in a header, headers over 16 KiB, conflicting
 * lengths, broken chunks) are refused by Node's HTTP parser before the gateway's routing runs, and
 * answered in the Error shape (400 `malformed_request`, 431 `headers_too_large`) with
 * `Connection: close`, as the gateway's README says. The suite asserts exactly that, and that
 * nothing crashed.
 */
import { contract } from '@petstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { unthrottled } from '../support/test-stack.js';
import { testStackForFile } from '../support/stack-for-file.js';
import type { BadInputCase } from './case-types.js';
import {
  documentCounts,
  expectNothingWritten,
  readState,
  type DatabaseState,
} from './database-state.js';
import { fieldCases } from './field-cases.js';
import { createFixtures, type Fixtures } from './fixtures.js';
import { generatedCases, routesUnderTest } from './generated-cases.js';
import { expectAnswer, sendCase } from './send-case.js';
import { wireCases } from './wire-cases.js';

const cases: BadInputCase[] = [
  ...generatedCases(),
  ...fieldCases(),
  ...wireCases(),
];

let databases: DatabaseReader;
let fixtures: Fixtures;
let before: { state: DatabaseState; counts: Record<string, number> };

// The fixtures' webhook goes to a loopback receiver.
const api = testStackForFile({
  ...unthrottled,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
});

beforeAll(async () => {
  databases = await api.databases();
  fixtures = await createFixtures(api);
  before = {
    state: await readState(databases),
    counts: await documentCounts(databases),
  };
});

afterAll(async () => {
  await fixtures.receiver.down();
});

describe('the table of bad input', () => {
  it('has at least 150 cases and reaches every operation of the contract', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const reached = new Set(cases.map((c) => c.operation));
    const operations = routesUnderTest().map((route) => route.name);
    expect(operations).toHaveLength(
      Object.values(contract.v1).reduce(
        (sum, router) => sum + Object.keys(router).length,
        0,
      ) + Object.keys(contract.meta).length,
    );
    expect(operations.filter((name) => !reached.has(name))).toEqual([]);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });
});

describe('each bad request gets its documented answer', () => {
  it.each(cases)('$name', async (c) => {
    expectAnswer(c, await sendCase(c, api.url, fixtures));
  });
});

describe('after every bad request', () => {
  it('the databases hold what they held before: nothing was written', async () => {
    expect(await documentCounts(databases)).toEqual(before.counts);
    expectNothingWritten(before.state, await readState(databases));
  });

  it('every process still runs and the API is ready', async () => {
    for (const process of [
      api.stack.pets,
      api.stack.store,
      api.stack.gateway,
    ]) {
      expect(process.running, process.name).toBe(true);
    }
    expect((await fetch(`${api.url}/ready`)).status).toBe(200);
  });

  it('no service answered a 5xx, except to clients that had already left', () => {
    const lines = api.logs.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    const clientLeft = new Set(
      lines
        .filter((line) =>
          /the client left/.test(JSON.stringify(line.err ?? '')),
        )
        .map((line) => line.requestId),
    );
    const failed = lines.filter(
      (line) =>
        typeof line.status === 'number' &&
        line.status >= 500 &&
        !clientLeft.has(line.requestId),
    );
    expect(failed).toEqual([]);
  });
});

/** A request with a raw JSON text as the body, as the admin unless a key is given. */
async function postJson(
  path: string,
  body: string,
  apiKey = fixtures.adminApiKey,
  type = 'application/json',
) {
  const res = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': type },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('odd but valid input is accepted and stored exactly as documented', () => {
  it('keeps NUL, emoji and astral characters in a pet name, trimmed', async () => {
    const name = 'Re\u0000x 🐶\u{1F600}';
    const created = await postJson(
      '/v1/pets',
      JSON.stringify({ name: `  ${name}  `, categoryId: fixtures.categoryId }),
    );
    expect(created).toEqual({
      status: 201,
      body: {
        id: expect.any(Number) as number,
        name,
        categoryId: fixtures.categoryId,
        status: 'available',
      },
    });
    const stored = await databases.find(databaseNames.pets, 'pets', {
      _id: created.body.id,
    });
    expect(stored).toEqual([
      {
        _id: created.body.id,
        name,
        categoryId: fixtures.categoryId,
        status: 'available',
      },
    ]);
  });

  it('refuses __proto__ and constructor keys as unknown properties: nothing is stored, no prototype is touched', async () => {
    const created = await postJson(
      '/v1/pets',
      `{"name":"Proto","categoryId":${fixtures.categoryId},` +
        '"__proto__":{"status":"sold","isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
    );
    expect(created).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        details: expect.arrayContaining([
          { path: 'body.__proto__', message: 'unknown parameter' },
          { path: 'body.constructor', message: 'unknown parameter' },
        ]) as unknown,
      },
    });
    expect(
      await databases.find(databaseNames.pets, 'pets', { name: 'Proto' }),
    ).toEqual([]);

    const account = await postJson(
      '/v1/accounts',
      '{"email":"proto@example.com","__proto__":{"role":"admin"},"constructor":{"role":"admin"}}',
    );
    expect(account).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    expect(
      await databases.find(databaseNames.gateway, 'accounts', {
        email: 'proto@example.com',
      }),
    ).toEqual([]);
  });

  it('keeps a message exactly as sent: NUL, emoji, astral characters and operator-like text', async () => {
    const message = 'a\u0000b 🐶 \u{1F600} {"$gt": ""} $where a.b';
    const sent = await postJson('/v1/messages', JSON.stringify({ message }));
    expect(sent).toMatchObject({ status: 202, body: { message } });
    const read = await fetch(`${api.url}/v1/messages/${String(sent.body.id)}`, {
      headers: { authorization: `Bearer ${fixtures.adminApiKey}` },
    });
    expect(await read.json()).toMatchObject({ message });
  });

  it('stores a category description that looks like an operator as the text it is', async () => {
    const created = await postJson(
      '/v1/categories',
      JSON.stringify({ name: 'Operators', description: '{"$gt": ""}' }),
    );
    expect(created).toMatchObject({
      status: 201,
      body: { description: '{"$gt": ""}' },
    });
    const stored = await databases.find(databaseNames.pets, 'categories', {
      _id: created.body.id,
    });
    expect(stored).toMatchObject([{ description: '{"$gt": ""}' }]);
  });

  it('reads a media type in any case, and ignores a leading byte order mark', async () => {
    const typed = await postJson(
      '/v1/categories',
      '{"name":"Cased"}',
      undefined,
      'Application/JSON; Charset=UTF-8',
    );
    expect(typed).toMatchObject({ status: 201, body: { name: 'Cased' } });
    const marked = await postJson('/v1/categories', '\uFEFF{"name":"Marked"}');
    expect(marked).toMatchObject({ status: 201, body: { name: 'Marked' } });
  });
});
