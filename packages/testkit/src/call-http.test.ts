import { text } from 'node:stream/consumers';
import { expect, it } from 'vitest';
import { callHttp } from './call-http.js';
import {
  accounts,
  gatewayHeaders,
  testInternalToken,
  type Who,
} from './gateway-identity.js';
import { serveHttp } from './serve-http.js';

/** A server that answers what it was sent: method, path, headers (null when absent) and body. */
async function serveEcho() {
  return serveHttp(async (req, res) => {
    const body = await text(req);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        method: req.method,
        path: req.url,
        contentType: req.headers['content-type'] ?? null,
        marker: req.headers['x-marker'] ?? null,
        authorization: req.headers.authorization ?? null,
        token: req.headers['x-internal-token'] ?? null,
        accountId: req.headers['x-account-id'] ?? null,
        role: req.headers['x-account-role'] ?? null,
        body,
      }),
    );
  });
}

it('sends a value as JSON with its headers and parses the JSON answer', async () => {
  await using echo = await serveEcho();
  const answer = await callHttp(echo.url, 'POST', '/things?x=1', {
    body: { name: 'Rex' },
    headers: { 'x-marker': 'm' },
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.body).toMatchObject({
    method: 'POST',
    path: '/things?x=1',
    contentType: 'application/json',
    marker: 'm',
    body: '{"name":"Rex"}',
  });
});

it('sends an API key as a bearer token', async () => {
  await using echo = await serveEcho();
  const answer = await callHttp(echo.url, 'GET', '/', { apiKey: 'psk_key' });
  expect(answer.body).toMatchObject({
    authorization: 'Bearer psk_key',
    contentType: null,
  });
});

it('sends the headers the gateway adds for an account, a service or nobody', async () => {
  await using echo = await serveEcho();
  const as = (who: Who) =>
    callHttp(echo.url, 'GET', '/', { as: who }).then(({ body }) => body);
  expect(await as(accounts.jane)).toMatchObject({
    token: testInternalToken,
    accountId: 'acct_jane1',
    role: 'customer',
  });
  expect(await as('service')).toMatchObject({
    token: testInternalToken,
    accountId: null,
  });
  expect(await as('nobody')).toMatchObject({ token: null, accountId: null });
  expect(gatewayHeaders('service', 'another-token')).toEqual({
    'x-internal-token': 'another-token',
  });
});

it('sends a string as it is, under the content type the caller gives', async () => {
  await using echo = await serveEcho();
  const answer = await callHttp<{ contentType: string; body: string }>(
    echo.url,
    'PUT',
    '/',
    {
      body: '{not json',
      headers: { 'Content-Type': 'text/plain' },
    },
  );
  expect(answer.body).toMatchObject({
    contentType: 'text/plain',
    body: '{not json',
  });
});

it('sends bytes as they are', async () => {
  await using echo = await serveEcho();
  const answer = await callHttp(echo.url, 'POST', '/', {
    body: Buffer.from('{"a":1}'),
  });
  expect(answer.body).toMatchObject({
    contentType: 'application/json',
    body: '{"a":1}',
  });
});

it('answers an undefined body when there is none', async () => {
  await using empty = await serveHttp((_req, res) => {
    res.statusCode = 204;
    res.end();
  });
  expect(await callHttp(empty.url, 'DELETE', '/x')).toMatchObject({
    status: 204,
    body: undefined,
  });
});

it('answers a body that is not JSON as its text', async () => {
  await using plain = await serveHttp((_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end('{not json');
  });
  expect(await callHttp(plain.url, 'GET', '/')).toMatchObject({
    status: 200,
    body: '{not json',
  });
});

it('answers JSON that does not parse as its text, for the test to report', async () => {
  await using broken = await serveHttp((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"id": 1,');
  });
  expect(await callHttp(broken.url, 'GET', '/')).toMatchObject({
    body: '{"id": 1,',
  });
});
