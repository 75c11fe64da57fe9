import { text } from 'node:stream/consumers';
import { expect, it } from 'vitest';
import { callHttp } from './call-http.js';
import { serveHttp } from './serve-http.js';

/** A server that answers what it was sent: method, path, content type and body. */
async function serveEcho() {
  return serveHttp(async (req, res) => {
    const body = await text(req);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        method: req.method,
        path: req.url,
        contentType: req.headers['content-type'],
        marker: req.headers['x-marker'],
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
  expect(answer.body).toEqual({
    method: 'POST',
    path: '/things?x=1',
    contentType: 'application/json',
    marker: 'm',
    body: '{"name":"Rex"}',
  });
});

it('sends a string as it is, under the content type the caller gives', async () => {
  await using echo = await serveEcho();
  const answer = await callHttp<{ contentType: string; body: string }>(echo.url, 'PUT', '/', {
    body: '{not json',
    headers: { 'content-type': 'text/plain' },
  });
  expect(answer.body).toMatchObject({ contentType: 'text/plain', body: '{not json' });
});

it('answers an undefined body when there is none', async () => {
  await using empty = await serveHttp((_req, res) => {
    res.statusCode = 204;
    res.end();
  });
  expect(await callHttp(empty.url, 'DELETE', '/x')).toMatchObject({ status: 204, body: undefined });
});
