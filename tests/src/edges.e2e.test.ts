/**
 * The edges of the API that independent tools found: int64 ids past 2^53, lengths counted in code
 * points, the headers of the deprecated operation on every answer, encoded request bodies, names
 * equal under Unicode case folding, and what Node's HTTP parser refuses.
 */
import { gzipSync } from 'node:zlib';
import { apiVersion } from '@petstore/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok, stockedPet } from './support/catalogue.js';
import { expectError } from './support/error-bodies.js';
import {
  callHttp,
  type HttpAnswer,
  type HttpCallOptions,
} from '@petstore/testkit';
import { rawJsonRequest } from './support/raw-http.js';
import { testStackForFile } from './support/stack-for-file.js';
import { unthrottled } from './support/test-stack.js';

const api = testStackForFile(unthrottled);
let customerKey: string;
let petId: number;

beforeAll(async () => {
  customerKey = (await api.signUp()).apiKey;
  petId = (await stockedPet(api.admin)).petId;
});

const asAdmin = (method: string, path: string, options: HttpCallOptions = {}) =>
  callHttp(api.url, method, path, {
    apiKey: api.stack.adminApiKey,
    ...options,
  });
const asCustomer = (
  method: string,
  path: string,
  options: HttpCallOptions = {},
) => callHttp(api.url, method, path, { apiKey: customerKey, ...options });

function messageOf(answer: HttpAnswer): string {
  return (answer.body as { message: string }).message;
}

describe('int64 path ids past 2^53', () => {
  const past53 = '9007199254740993';
  const nearMax = '9223372036854775806';

  it.each([
    ['GET', `/v1/pets/${past53}`, `pet ${past53} not found`],
    ['DELETE', `/v1/pets/${nearMax}`, `pet ${nearMax} not found`],
    ['GET', `/v1/categories/${past53}`, `category ${past53} not found`],
    ['GET', `/v1/store/orders/${nearMax}`, `order ${nearMax} not found`],
    ['GET', `/v1/store/inventory/${past53}`, `pet ${past53} has no stock`],
  ])('%s %s is 404 naming the id exactly', async (method, path, words) => {
    const answer = await asAdmin(method, path);
    expectError(answer, 'not_found');
    expect(messageOf(answer)).toContain(words);
  });

  it('refuses stock for a pet id past 2^53 as an unknown pet, named exactly', async () => {
    const answer = await asAdmin('PUT', `/v1/store/inventory/${past53}`, {
      body: { quantity: 1 },
    });
    expectError(answer, 'unknown_pet');
    expect(messageOf(answer)).toContain(`pet ${past53} does not exist`);
  });

  it('lists nothing for a filter id past 2^53', async () => {
    const pets = await asCustomer('GET', `/v1/pets?categoryId=${past53}`);
    expect(pets).toMatchObject({ status: 200, body: [] });
    const orders = await asAdmin('GET', `/v1/store/orders?petId=${past53}`);
    expect(orders).toMatchObject({ status: 200, body: [] });
  });

  it('still refuses a value past int64 with 400', async () => {
    expectError(
      await asAdmin('GET', '/v1/pets/9223372036854775808'),
      'validation_failed',
    );
  });
});

describe('string lengths count code points', () => {
  const dogs = (count: number) => '🐶'.repeat(count);

  it('takes a category name of 100 emoji (200 UTF-16 units) and refuses 101', async () => {
    const created = await asAdmin('POST', '/v1/categories', {
      body: { name: dogs(100) },
    });
    expect(created).toMatchObject({ status: 201, body: { name: dogs(100) } });
    expectError(
      await asAdmin('POST', '/v1/categories', {
        body: { name: `x${dogs(100)}` },
      }),
      'validation_failed',
    );
  });

  it('takes a pet name of 100 emoji', async () => {
    const { categoryId } = await stockedPet(api.admin);
    const created = await asAdmin('POST', '/v1/pets', {
      body: { name: dogs(100), categoryId },
    });
    expect(created).toMatchObject({ status: 201, body: { name: dogs(100) } });
  });

  it('takes an account name of 100 emoji', async () => {
    const email = `emoji.${Date.now()}@example.com`;
    const created = await callHttp(api.url, 'POST', '/v1/accounts', {
      body: { email, name: dogs(100) },
    });
    expect(created).toMatchObject({ status: 201, body: { name: dogs(100) } });
  });

  it('takes a message of 10 000 emoji and refuses 10 001', async () => {
    const sent = await asCustomer('POST', '/v1/messages', {
      body: { message: dogs(10_000) },
    });
    expect(sent.status).toBe(202);
    expectError(
      await asCustomer('POST', '/v1/messages', {
        body: { message: dogs(10_001) },
      }),
      'validation_failed',
    );
  });

  it('says maxLength in the document, as JSON Schema counts it', async () => {
    const document = (await callHttp(api.url, 'GET', '/openapi.json')).body as {
      components: {
        schemas: Record<string, { properties: Record<string, object> }>;
      };
    };
    expect(
      document.components.schemas.NewCategory?.properties.name,
    ).toMatchObject({
      minLength: 1,
      maxLength: 100,
    });
  });
});

describe('category names are unique under Unicode case folding', () => {
  it.each([
    ['straße', 'STRASSE'],
    ['σας', 'ΣΑΣ'],
    ['ﬁsh', 'FISH'],
  ])(
    'refuses %s once %s exists… and the other way round',
    async (first, second) => {
      const suffix = ` ${Date.now()}`;
      ok(
        await api.admin.categories.createCategory({
          body: { name: first + suffix },
        }),
        201,
      );
      expectError(
        await asAdmin('POST', '/v1/categories', {
          body: { name: second + suffix },
        }),
        'conflict',
      );
    },
  );
});

describe('the deprecated GET /v1/pets/{petId}', () => {
  function expectDeprecated(answer: HttpAnswer) {
    expect(answer.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(answer.headers.get('sunset')).toMatch(/GMT$/);
    expect(answer.headers.get('link')).toMatch(/rel="deprecation"/);
  }

  it('marks its success and its errors from pets', async () => {
    expectDeprecated(await asCustomer('GET', `/v1/pets/${petId}`));
    expectDeprecated(await asCustomer('GET', '/v1/pets/999999'));
    expectDeprecated(await asCustomer('GET', '/v1/pets/abc'));
  });

  it('marks the 401 the gateway answers', async () => {
    const answer = await callHttp(api.url, 'GET', `/v1/pets/${petId}`);
    expectError(answer, 'unauthorized');
    expectDeprecated(answer);
  });

  it('marks the 503 the gateway answers while pets is down, and nothing else', async () => {
    await api.stack.pets.stop();
    try {
      const answer = await asCustomer('GET', `/v1/pets/${petId}`);
      expectError(answer, 'service_unavailable');
      expectDeprecated(answer);
      const list = await asCustomer('GET', '/v1/pets');
      expect(list.headers.get('deprecation')).toBeNull();
    } finally {
      await api.stack.pets.start();
    }
  });
});

describe('Content-Encoding on a request body', () => {
  const json = JSON.stringify({ name: `Gzipped ${Date.now()}` });

  it('refuses a gzip body with 415 unsupported_content_encoding and Accept-Encoding', async () => {
    const answer = await callHttp(api.url, 'POST', '/v1/categories', {
      apiKey: api.stack.adminApiKey,
      body: gzipSync(json) as unknown as string,
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
    });
    expectError(answer, 'unsupported_content_encoding');
    expect(answer.headers.get('accept-encoding')).toBe('identity');
  });

  it('refuses a plain body labelled br, for the gateway’s own operations too', async () => {
    const answer = await asCustomer('POST', '/v1/messages', {
      body: JSON.stringify({ message: 'hi' }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
    });
    expectError(answer, 'unsupported_content_encoding');
  });

  it('takes a body labelled identity', async () => {
    const answer = await asAdmin('POST', '/v1/categories', {
      body: json,
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'identity',
      },
    });
    expect(answer.status).toBe(201);
  });
});

describe('what Node’s HTTP parser refuses', () => {
  const rawAnswer = (bytes: string) => rawJsonRequest(api.url, bytes);

  it('answers a 20 000-character query with 431 in the Error shape', async () => {
    const answer = await rawAnswer(
      `GET /v1/pets?cursor=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expectError(answer, 'headers_too_large');
    expect(answer.headers.get('connection')).toBe('close');
  });

  it('answers Transfer-Encoding with Content-Length with 400 malformed_request', async () => {
    const answer = await rawAnswer(
      'POST /v1/categories HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\nContent-Length: 15\r\n\r\n0\r\n\r\n{"name":"Cats"}',
    );
    expectError(answer, 'malformed_request');
    expect(answer.headers.get('api-version')).toBe(apiVersion);
  });

  it('answers a lowercase method with 400 malformed_request', async () => {
    const answer = await rawAnswer(
      'get /v1/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expectError(answer, 'malformed_request');
  });

  it('logs them at warn, never at error', async () => {
    await expect
      .poll(
        () =>
          api.logsOf('gateway').filter((line) => line.includes('HPE_')).length,
      )
      .toBeGreaterThanOrEqual(3);
    const parserLines = api
      .logsOf('gateway')
      .filter((line) => line.includes('HPE_'))
      .map((line) => (JSON.parse(line) as { level: number }).level);
    expect(new Set(parserLines)).toEqual(new Set([40]));
  });
});
