import { describe, expect, it } from 'vitest';
import {
  PetstoreConnectionError,
  PetstoreError,
  PetstoreTimeoutError,
} from './errors.js';
import {
  errorBody,
  refusingBaseUrl,
  startServer,
} from './test-support/test-server.js';
import { runtime } from './test-support/runtime.js';
import { testClient } from './test-support/test-client.js';

const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };

/** On Node the client names itself; a browser sends its own User-Agent. */
const expectedUserAgent =
  runtime === 'node'
    ? `petstore-client/1.0.0 node/${process.versions.node}`
    : navigator.userAgent;

/** Node's fetch names the socket's error; a browser's says only that it failed. */
const refusedReason =
  runtime === 'node' ? /failed: .*ECONNREFUSED/ : /failed: Failed to fetch$/;

describe('RequestSender', () => {
  it('sends the key, the user agent and JSON headers', async () => {
    await using server = await startServer({ status: 201, body: pet });
    const { client } = testClient(server.baseUrl);

    await client.pets.create({ name: 'Rex', categoryId: 1 });

    const [request] = await server.received();
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v2/pets');
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer psk_test',
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': expectedUserAgent,
    });
    expect(JSON.parse(request?.body ?? '')).toEqual({
      name: 'Rex',
      categoryId: 1,
    });
  });

  it('sends no Authorization and no Content-Type when there is no key and no body', async () => {
    await using server = await startServer({ status: 200, body: pet });
    const { client } = testClient(server.baseUrl, { apiKey: '' });

    await client.pets.get(1);

    const [request] = await server.received();
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers['content-type']).toBeUndefined();
  });

  it('attaches the X-Request-Id as a requestId that JSON and equality ignore', async () => {
    await using server = await startServer({
      status: 200,
      headers: { 'x-request-id': 'req-1' },
      body: pet,
    });
    const { client } = testClient(server.baseUrl);

    const result = await client.pets.get(1);

    expect(result.requestId).toBe('req-1');
    expect(result).toEqual(pet);
    expect(JSON.stringify(result)).toBe(JSON.stringify(pet));
  });

  it('resolves a 204 to its request id', async () => {
    await using server = await startServer({
      status: 204,
      headers: { 'x-request-id': 'req-2' },
    });
    const { client } = testClient(server.baseUrl);

    await expect(client.pets.delete(1)).resolves.toEqual({
      requestId: 'req-2',
    });
  });

  it('retries a GET after 503 and answers with the 200', async () => {
    await using server = await startServer(
      errorBody(503, 'service_unavailable'),
      { status: 200, body: pet },
    );
    const { client, delays } = testClient(server.baseUrl);

    await expect(client.pets.get(1)).resolves.toEqual(pet);
    expect(await server.received()).toHaveLength(2);
    expect(delays).toEqual([500]);
  });

  it('backs off exponentially and gives up after maxRetries with the last error', async () => {
    await using server = await startServer(errorBody(502, 'bad_gateway'));
    const { client, delays } = testClient(server.baseUrl, { maxRetries: 3 });

    await expect(client.pets.get(1)).rejects.toMatchObject({
      status: 502,
      code: 'bad_gateway',
    });
    expect(await server.received()).toHaveLength(4);
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it('waits what Retry-After asks after a 429', async () => {
    await using server = await startServer(
      { ...errorBody(429, 'rate_limited'), headers: { 'retry-after': '3' } },
      { status: 200, body: [] },
    );
    const { client, delays } = testClient(server.baseUrl);

    await client.pets.list().firstPage();
    expect(delays).toEqual([3000]);
  });

  it('takes maxRetries per call over the client setting', async () => {
    await using server = await startServer(errorBody(504, 'upstream_timeout'));
    const { client } = testClient(server.baseUrl, { maxRetries: 5 });

    await expect(client.pets.get(1, { maxRetries: 0 })).rejects.toBeInstanceOf(
      PetstoreError,
    );
    expect(await server.received()).toHaveLength(1);
  });

  it('does not retry a PATCH, which carries no Idempotency-Key', async () => {
    await using server = await startServer(
      errorBody(503, 'service_unavailable'),
    );
    const { client } = testClient(server.baseUrl);

    await expect(
      client.pets.update(1, { status: 'sold' }),
    ).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    const received = await server.received();
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('retries a POST that carries an Idempotency-Key, with the same key', async () => {
    await using server = await startServer(
      errorBody(503, 'service_unavailable'),
      errorBody(503, 'service_unavailable'),
      { status: 201, body: pet },
    );
    const { client } = testClient(server.baseUrl);

    await client.pets.create(
      { name: 'Rex', categoryId: 1 },
      { idempotencyKey: 'key-1' },
    );

    expect(
      (await server.received()).map(
        (request) => request.headers['idempotency-key'],
      ),
    ).toEqual(['key-1', 'key-1', 'key-1']);
  });

  it('does not retry 500 or a 4xx', async () => {
    await using server = await startServer(
      errorBody(500, 'internal_error'),
      errorBody(409, 'conflict'),
    );
    const { client } = testClient(server.baseUrl);

    await expect(client.pets.get(1)).rejects.toMatchObject({
      code: 'internal_error',
    });
    await expect(client.pets.get(1)).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await server.received()).toHaveLength(2);
  });

  it('turns a refused connection into a PetstoreConnectionError after its retries', async () => {
    const { client, delays } = testClient(await refusingBaseUrl());

    const error = await client.pets.get(1).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PetstoreConnectionError);
    expect(error).not.toBeInstanceOf(PetstoreTimeoutError);
    expect((error as Error).message).toMatch(/^GET \/v2\/pets\/1 failed: /);
    expect((error as Error).message).toMatch(refusedReason);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(delays).toHaveLength(2);
  });

  it('times an attempt out with a PetstoreTimeoutError and retries it', async () => {
    await using server = await startServer('hang');
    const { client, delays } = testClient(server.baseUrl, {
      timeout: 50,
      maxRetries: 1,
    });

    const error = await client.pets.get(1).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PetstoreTimeoutError);
    expect(error).toBeInstanceOf(PetstoreConnectionError);
    expect((error as Error).message).toBe(
      'GET /v2/pets/1 timed out after 50 ms',
    );
    // Retried once. On a busy machine the second attempt can time out before the server has
    // read it, so the attempts are counted where they are made.
    expect(delays).toHaveLength(1);
    expect((await server.received()).length).toBeGreaterThanOrEqual(1);
  });

  it('takes the timeout per call', async () => {
    await using server = await startServer('hang');
    const { client } = testClient(server.baseUrl, { timeout: 60_000 });

    await expect(
      client.pets.get(1, { timeout: 20, maxRetries: 0 }),
    ).rejects.toBeInstanceOf(PetstoreTimeoutError);
  });

  it('takes a timeout of Infinity as none', async () => {
    await using server = await startServer({ status: 200, body: pet });
    const { client } = testClient(server.baseUrl, { timeout: Infinity });

    await expect(client.pets.get(1)).resolves.toEqual(pet);
  });

  it('rejects with the reason of the caller’s signal and does not retry', async () => {
    await using server = await startServer('hang');
    const { client } = testClient(server.baseUrl);
    const controller = new AbortController();

    const call = client.pets.get(1, { signal: controller.signal });
    await expect.poll(async () => (await server.received()).length).toBe(1);
    controller.abort(new Error('stop'));

    await expect(call).rejects.toThrow('stop');
    expect(await server.received()).toHaveLength(1);
  });
});

describe('headers', () => {
  it('sends the client’s headers and the call’s over them, whatever their case', async () => {
    await using server = await startServer({ status: 200, body: pet });
    const { client } = testClient(server.baseUrl, {
      headers: { 'X-Tenant': 'client', 'X-Trace': 'client' },
    });

    await client.pets.get(1, {
      headers: { 'x-trace': 'call', Authorization: 'Bearer psk_other' },
    });
    await client.pets.get(1, { headers: new Headers({ 'X-Extra': 'yes' }) });

    const [first, second] = await server.received();
    expect(first?.headers).toMatchObject({
      'x-tenant': 'client',
      'x-trace': 'call',
      authorization: 'Bearer psk_other',
    });
    expect(second?.headers).toMatchObject({
      'x-trace': 'client',
      'x-extra': 'yes',
    });
  });

  it('takes an Idempotency-Key given as a header instead of generating one', async () => {
    await using server = await startServer(
      errorBody(503, 'service_unavailable'),
      { status: 201, body: pet },
    );
    const { client } = testClient(server.baseUrl);

    await client.pets.create(
      { name: 'Rex', categoryId: 1 },
      { headers: { 'idempotency-key': 'from-header' } },
    );

    expect(
      (await server.received()).map(
        (request) => request.headers['idempotency-key'],
      ),
    ).toEqual(['from-header', 'from-header']);
  });
});
