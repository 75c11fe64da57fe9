import { describe, expect, it } from 'vitest';
import { PetstoreError } from './errors.js';
import { startServer } from './test-support/test-server.js';
import { testClient } from './test-support/test-client.js';

async function failure(promise: Promise<unknown>): Promise<PetstoreError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(PetstoreError);
  return error as PetstoreError;
}

describe('PetstoreError', () => {
  it('carries the status, code, message, request id and details of an Error body', async () => {
    const details = [{ path: 'body.quantity', message: 'must be >= 1' }];
    await using server = await startServer({
      status: 400,
      headers: { 'x-request-id': 'req-header' },
      body: {
        code: 'validation_failed',
        message: 'body.quantity: must be >= 1',
        status: 400,
        requestId: 'req-body',
        details,
      },
    });
    const { client } = testClient(server.baseUrl);

    const error = await failure(
      client.orders.create({ petId: 1, quantity: 0 }),
    );

    expect(error).toMatchObject({
      name: 'PetstoreError',
      status: 400,
      code: 'validation_failed',
      message: 'body.quantity: must be >= 1',
      requestId: 'req-body',
      details,
    });
    expect(error).toBeInstanceOf(Error);
  });

  it('takes the request id from X-Request-Id when the body has none', async () => {
    await using server = await startServer({
      status: 404,
      headers: { 'x-request-id': 'req-404' },
      body: { code: 'not_found', message: 'pet 7 not found', status: 404 },
    });
    const { client } = testClient(server.baseUrl);

    const error = await failure(client.pets.get(7));

    expect(error).toMatchObject({
      code: 'not_found',
      requestId: 'req-404',
      details: undefined,
    });
  });

  it('gives a body that is not JSON a code chosen by its status, never a parse error', async () => {
    await using server = await startServer({
      status: 502,
      headers: { 'content-type': 'text/html', 'x-request-id': 'req-502' },
      text: '<html>Bad Gateway</html>',
    });
    const { client } = testClient(server.baseUrl, { maxRetries: 0 });

    const error = await failure(client.pets.get(1));

    expect(error).toMatchObject({
      status: 502,
      code: 'bad_gateway',
      requestId: 'req-502',
      message: 'GET /v2/pets/1 answered 502 (text/html)',
    });
  });

  it('chooses a code for an empty error body by its status', async () => {
    await using server = await startServer(
      { status: 401 },
      { status: 418 },
      { status: 599 },
    );
    const { client } = testClient(server.baseUrl, { maxRetries: 0 });

    expect((await failure(client.pets.get(1))).code).toBe('unauthorized');
    expect((await failure(client.pets.get(1))).code).toBe('malformed_request');
    expect((await failure(client.pets.get(1))).code).toBe('internal_error');
  });

  it('is a bad_gateway when a success has no JSON body', async () => {
    await using server = await startServer({
      status: 200,
      headers: { 'content-type': 'text/plain', 'x-request-id': 'req-200' },
      text: 'OK',
    });
    const { client } = testClient(server.baseUrl);

    const error = await failure(client.pets.get(1));

    expect(error).toMatchObject({
      status: 200,
      code: 'bad_gateway',
      requestId: 'req-200',
    });
    await expect(client.pets.list().firstPage()).rejects.toMatchObject({
      code: 'bad_gateway',
    });
  });

  it('carries the response headers and the seconds Retry-After asks', async () => {
    const rateLimited = (retryAfter: string) => ({
      status: 429,
      headers: { 'retry-after': retryAfter, 'ratelimit-remaining': '0' },
      body: { code: 'rate_limited', message: 'slow down', status: 429 },
    });
    await using server = await startServer(
      rateLimited('7'),
      rateLimited(new Date(Date.now() + 30_000).toUTCString()),
    );
    const { client } = testClient(server.baseUrl, { maxRetries: 0 });

    const inSeconds = await failure(client.pets.get(1));
    const asDate = await failure(client.pets.get(1));

    expect(inSeconds.retryAfter).toBe(7);
    expect(inSeconds.headers.get('ratelimit-remaining')).toBe('0');
    expect(asDate.retryAfter).toBeGreaterThan(25);
    expect(asDate.retryAfter).toBeLessThanOrEqual(30);
  });

  it('has no retryAfter without Retry-After, and the headers of a body that is no Error', async () => {
    await using server = await startServer({
      status: 502,
      headers: { 'content-type': 'text/html', 'x-served-by': 'proxy' },
      text: '<html>Bad Gateway</html>',
    });
    const { client } = testClient(server.baseUrl, { maxRetries: 0 });

    const error = await failure(client.pets.get(1));

    expect(error.retryAfter).toBeUndefined();
    expect(error.headers.get('x-served-by')).toBe('proxy');
  });
});
