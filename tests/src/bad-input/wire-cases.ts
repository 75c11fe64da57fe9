import type { ErrorCode } from '@petstore/contract';
import {
  JSON_TYPE,
  MIB,
  error,
  refused,
  success,
  withJson,
  type BadInputCase,
  type Caller,
  type Expected,
} from './case-types.js';

const KIB = 1024;

/** A case of `operation`, named after it. */
const caseOf = (
  operation: string,
  name: string,
  method: string,
  path: string,
  expected: Expected,
  more: Partial<BadInputCase> = {},
): BadInputCase => ({
  name: `${operation}: ${name}`,
  operation,
  method,
  path,
  expected,
  ...more,
});

/** A case sent as raw bytes. */
const raw = (
  ...[operation, name, method, path, expected, more]: Parameters<typeof caseOf>
) =>
  caseOf(operation, name, method, path, expected, {
    transport: 'raw',
    ...more,
  });

const get = (
  operation: string,
  name: string,
  path: string,
  expected: Expected,
  more?: Partial<BadInputCase>,
) => caseOf(operation, name, 'GET', path, expected, more);

/**
 * Bodies where none belongs: a POST without a body still refuses a broken one; a DELETE refuses
 * any body.
 */
function unexpectedBodies(): BadInputCase[] {
  const operations: [string, string, string, Caller][] = [
    ['createKey', 'POST', '/v1/accounts/me/keys', 'admin'],
    ['deletePet', 'DELETE', '/v1/pets/{pet}', 'admin'],
    ['deleteCategory', 'DELETE', '/v1/categories/{category}', 'admin'],
    ['cancelOrder', 'DELETE', '/v1/store/orders/{order}', 'admin'],
    ['revokeKey', 'DELETE', '/v1/accounts/me/keys/{key}', 'customer'],
  ];
  return operations.flatMap(([operation, method, path, as]) => {
    const refusal = (code: ErrorCode) =>
      error(method === 'POST' ? code : 'validation_failed');
    const malformed = refusal('invalid_json');
    const large = JSON.stringify({ pad: 'x'.repeat(MIB) });
    return [
      withJson(
        operation,
        method,
        path,
        'a malformed JSON body',
        '{"x": ',
        malformed,
        as,
      ),
      {
        ...withJson(
          operation,
          method,
          path,
          'a text/plain body',
          'x',
          refusal('unsupported_content_type'),
          as,
        ),
        headers: { 'content-type': 'text/plain' },
      },
      withJson(
        operation,
        method,
        path,
        'a body of 1 MiB',
        large,
        refusal('payload_too_large'),
        as,
      ),
    ];
  });
}

/** Headers with odd values that `fetch` can still send. */
function headerCases(): BadInputCase[] {
  return [
    get(
      'listPets',
      'a bearer token that is an operator object',
      '/v1/pets',
      error('unauthorized'),
      {
        as: 'anonymous',
        headers: { authorization: 'Bearer {"$gt":""}' },
      },
    ),
    get(
      'listPets',
      'a bearer token of 10 KiB',
      '/v1/pets',
      error('unauthorized'),
      {
        as: 'anonymous',
        headers: { authorization: `Bearer psk_${'a'.repeat(10 * KIB)}` },
      },
    ),
    get(
      'getPet',
      'X-HTTP-Method-Override: DELETE (ignored)',
      '/v1/pets/{pet}',
      success(200),
      {
        headers: {
          'x-http-method-override': 'DELETE',
          'x-method-override': 'DELETE',
        },
      },
    ),
    {
      ...withJson(
        'createCategory',
        'POST',
        '/v1/categories',
        'a customer claiming the admin role in headers',
        '{"name": "Cats"}',
        error('forbidden'),
        'customer',
      ),
      headers: {
        ...JSON_TYPE,
        'x-account-role': 'admin',
        'x-account-id': 'acct_admin',
        'x-internal-token': 'x'.repeat(64),
      },
    },
    get(
      'getMe',
      'an unknown $-parameter',
      '/v1/accounts/me?$where=1',
      error('validation_failed'),
    ),
    get(
      'listKeys',
      'an operator in brackets',
      '/v1/accounts/me/keys?limit[$gt]=0',
      error('validation_failed'),
    ),
  ];
}

/** The meta routes: no input to speak of, but methods and queries can still be odd. */
function metaCases(): BadInputCase[] {
  const method = (
    operation: string,
    verb: string,
    path: string,
  ): BadInputCase => ({
    name: `${operation}: ${verb}`,
    operation,
    method: verb,
    path,
    as: 'anonymous',
    expected: error('method_not_allowed'),
  });
  return [
    method('health', 'POST', '/health'),
    method('ready', 'DELETE', '/ready'),
    method('openapi', 'PUT', '/openapi.json'),
    method('docs', 'PATCH', '/docs'),
    get('health', 'an unknown $-parameter', '/health?$where=1', success(200), {
      as: 'anonymous',
    }),
    get('ready', 'a NUL in the query', '/ready?x=%00', success(200), {
      as: 'anonymous',
    }),
    get(
      'openapi',
      'invalid UTF-8 in an unknown parameter',
      '/openapi.json?x=%FF',
      error('validation_failed'),
      {
        as: 'anonymous',
      },
    ),
  ];
}

/** Paths that match no operation however they are spelled, or a known path with another verb. */
function routeCases(): BadInputCase[] {
  const none = error('route_not_found');
  return [
    get(
      'unknown route',
      'a segment after a pet id',
      '/v1/pets/{pet}/extra',
      none,
    ),
    get('unknown route', 'the path in capitals', '/V1/PETS', none),
    get('unknown route', 'a capitalised segment', '/v1/Pets/{pet}', none),
    get(
      'unknown route',
      'an encoded slash joining two segments',
      '/v1/pets%2F{pet}',
      none,
    ),
    get(
      'unknown route',
      'a path parameter in a ;param',
      '/v1/pets;jsessionid=1',
      none,
    ),
    {
      name: 'unknown method: POST on the inventory list',
      operation: 'listInventory',
      method: 'POST',
      path: '/v1/store/inventory',
      expected: error('method_not_allowed'),
    },
    {
      name: 'unknown method: PATCH on a category',
      operation: 'getCategory',
      method: 'PATCH',
      path: '/v1/categories/{category}',
      headers: { ...JSON_TYPE },
      body: '{"name": "Cats"}',
      expected: error('method_not_allowed'),
    },
  ];
}

/** Raw paths `fetch` would normalise: dot segments, encoded slashes, doubled slashes, bad escapes. */
function rawPathCases(): BadInputCase[] {
  const none = error('route_not_found');
  const invalid = error('validation_failed');
  return [
    raw('unknown route', 'a .. segment', 'GET', '/v1/pets/../categories', none),
    raw('unknown route', 'a . segment', 'GET', '/v1/pets/./{pet}', none),
    raw('unknown route', 'a leading //', 'GET', '//v1/pets', none),
    raw('unknown route', 'a // inside', 'GET', '/v1//pets', none),
    raw('unknown route', 'a // before the id', 'GET', '/v1/pets//{pet}', none),
    raw('unknown route', 'a trailing slash', 'GET', '/v1/pets/{pet}/', none),
    raw(
      'unknown route',
      'an encoded .. segment',
      'GET',
      '/v1/pets/%2e%2e/{pet}',
      none,
    ),
    raw(
      'unknown route',
      'DELETE of a pet with /.. after it',
      'DELETE',
      '/v1/pets/{pet}/..',
      none,
    ),
    raw('unknown route', 'the asterisk form', 'GET', '*', none),
    raw('getPet', '..%2F before the id', 'GET', '/v1/pets/..%2F{pet}', invalid),
    raw(
      'getPet',
      'an id followed by %2F..%2F',
      'GET',
      '/v1/pets/{pet}%2F..%2F..%2Fcategories',
      {
        ...invalid,
      },
    ),
    raw(
      'getOrder',
      'an encoded slash alone',
      'GET',
      '/v1/store/orders/%2F',
      invalid,
    ),
    raw('getPet', 'a lone %', 'GET', '/v1/pets/%', invalid),
    raw('getPet', 'a truncated escape', 'GET', '/v1/pets/%E0%A4%A', invalid),
    raw(
      'getPet',
      'overlong UTF-8 dots',
      'GET',
      '/v1/pets/%C0%AE%C0%AE',
      invalid,
    ),
    raw(
      'getMessage',
      'a .. segment as the id',
      'GET',
      '/v1/messages/..',
      invalid,
    ),
    raw(
      'revokeKey',
      'a .. segment as the id',
      'DELETE',
      '/v1/accounts/me/keys/..',
      invalid,
      {
        as: 'customer',
      },
    ),
    raw(
      'revokeKey',
      'an encoded ../../',
      'DELETE',
      '/v1/accounts/me/keys/..%2F..%2Fme',
      invalid,
      {
        as: 'customer',
      },
    ),
    raw(
      'listPets',
      'a lone % in the query',
      'GET',
      '/v1/pets?limit=%',
      invalid,
    ),
    raw(
      'listPets',
      'the absolute form (the path counts, not the host)',
      'GET',
      'http://evil.example/v1/pets',
      {
        ...success(200),
      },
    ),
    raw(
      'getPet',
      'a GET with a malformed JSON body',
      'GET',
      '/v1/pets/{pet}',
      error('validation_failed'),
      {
        rawHeaders: 'Content-Type: application/json\r\n',
        body: '{',
      },
    ),
    raw(
      'getMessage',
      'a GET with a text/plain body',
      'GET',
      '/v1/messages/{message}',
      error('validation_failed'),
      { rawHeaders: 'Content-Type: text/plain\r\n', body: 'hello' },
    ),
  ];
}

/**
 * Bytes that break HTTP itself: Node's parser refuses them before the gateway's code runs, and
 * service-kit answers them in the Error shape (400 `malformed_request`, or 431
 * `headers_too_large` past 16 KiB of headers) and closes the connection.
 */
function parserCases(): BadInputCase[] {
  const big = 'a'.repeat(20 * KIB);
  const json = 'Content-Type: application/json\r\n';
  const chunked = `${json}Transfer-Encoding: chunked\r\n`;
  return [
    raw(
      'listPets',
      'a header of 20 KiB',
      'GET',
      '/v1/pets',
      refused('headers_too_large'),
      {
        rawHeaders: `X-Big: ${big}\r\n`,
      },
    ),
    raw(
      'listPets',
      'a request line of 20 KiB',
      'GET',
      `/v1/pets?cursor=${big}`,
      refused('headers_too_large'),
    ),
    raw(
      'listPets',
      'a bare CR in a header value',
      'GET',
      '/v1/pets',
      refused('malformed_request'),
      {
        rawHeaders: 'X-Note: a\rX-Account-Role: admin\r\n',
      },
    ),
    raw(
      'listPets',
      'a bare LF in a header value',
      'GET',
      '/v1/pets',
      refused('malformed_request'),
      {
        rawHeaders: 'X-Note: a\nX-Account-Role: admin\r\n',
      },
    ),
    raw(
      'listPets',
      'a NUL in a header value',
      'GET',
      '/v1/pets',
      refused('malformed_request'),
      {
        rawHeaders: 'X-Note: a\u0000b\r\n',
      },
    ),
    raw(
      'listPets',
      'a space in a header name',
      'GET',
      '/v1/pets',
      refused('malformed_request'),
      {
        rawHeaders: 'X Note: a\r\n',
      },
    ),
    raw(
      'listPets',
      'a folded header line',
      'GET',
      '/v1/pets',
      refused('malformed_request'),
      {
        rawHeaders: 'X-Note: a\r\n b\r\n',
      },
    ),
    raw(
      'listPets',
      'a method in lower case',
      'get',
      '/v1/pets',
      refused('malformed_request'),
    ),
    raw(
      'listPets',
      'an unknown HTTP version',
      'GET',
      '/v1/pets',
      refused('malformed_request'),
      {
        httpVersion: 'HTTP/9.9',
      },
    ),
    raw(
      'createCategory',
      'Content-Length and Transfer-Encoding',
      'POST',
      '/v1/categories',
      refused('malformed_request'),
      {
        rawHeaders: `${chunked}Content-Length: 15\r\n`,
        body: '0\r\n\r\n{"name":"Cats"}',
      },
    ),
    raw(
      'createCategory',
      'a Content-Length that is no number',
      'POST',
      '/v1/categories',
      refused('malformed_request'),
      {
        rawHeaders: `${json}Content-Length: abc\r\n`,
        body: '{"name":"Cats"}',
      },
    ),
    raw(
      'createCategory',
      'two different Content-Lengths',
      'POST',
      '/v1/categories',
      refused('malformed_request'),
      {
        rawHeaders: `${json}Content-Length: 15\r\nContent-Length: 2\r\n`,
        body: '{"name":"Cats"}',
      },
    ),
    raw(
      'createCategory',
      'a Transfer-Encoding other than chunked',
      'POST',
      '/v1/categories',
      refused('malformed_request'),
      {
        rawHeaders: `${json}Transfer-Encoding: gzip\r\n`,
        body: '{"name":"Cats"}',
      },
    ),
    raw(
      'createCategory',
      'a chunk size that is no number',
      'POST',
      '/v1/categories',
      refused('malformed_request'),
      {
        rawHeaders: chunked,
        body: 'zz\r\n{"name":"Cats"}\r\n0\r\n\r\n',
      },
    ),
    raw(
      'sendMessage',
      'a chunk size that is no number',
      'POST',
      '/v1/messages',
      refused('malformed_request'),
      {
        rawHeaders: chunked,
        body: 'zz\r\n{"message":"hi"}\r\n0\r\n\r\n',
      },
    ),
    raw(
      'createCategory',
      'a body cut short',
      'POST',
      '/v1/categories',
      refused('malformed_request'),
      {
        rawHeaders: `${json}Content-Length: 100\r\n`,
        body: '{"name":"Ca',
        endAfterWriting: true,
      },
    ),
    raw(
      'sendMessage',
      'a body cut short',
      'POST',
      '/v1/messages',
      refused('malformed_request'),
      {
        rawHeaders: `${json}Content-Length: 100\r\n`,
        body: '{"message":"h',
        endAfterWriting: true,
      },
    ),
  ];
}

/** Bodies streamed in chunks, with no length announced, past the 64 KiB limit. */
function streamedCases(): BadInputCase[] {
  const body = JSON.stringify({ name: 'x'.repeat(MIB), message: 'x' });
  return [
    {
      ...withJson(
        'createPet',
        'POST',
        '/v1/pets',
        'a chunked body of 1 MiB',
        body,
        error('payload_too_large'),
      ),
      transport: 'stream',
    },
    {
      ...withJson(
        'sendMessage',
        'POST',
        '/v1/messages',
        'a chunked body of 1 MiB',
        body,
        {
          ...error('payload_too_large'),
        },
      ),
      transport: 'stream',
    },
  ];
}

/** Hand-written cases about the wire: headers, methods, raw paths, broken HTTP, streams. */
export function wireCases(): BadInputCase[] {
  return [
    ...unexpectedBodies(),
    ...headerCases(),
    ...metaCases(),
    ...routeCases(),
    ...rawPathCases(),
    ...parserCases(),
    ...streamedCases(),
  ];
}
