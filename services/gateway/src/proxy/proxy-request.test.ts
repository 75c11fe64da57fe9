import { freePort, serveHttp, testInternalToken } from '@petstore/testkit';
import { request, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, vi } from 'vitest';
import { sendJson, startFakeService } from '../test-support/fake-service.js';
import {
  ADMIN_API_KEY,
  bearer,
  signUp,
  startTestGateway,
} from '../test-support/gateway-harness.js';
import { it } from '@petstore/testkit/vitest';

const admin = bearer(ADMIN_API_KEY);
const anOrder = {
  id: 7,
  petId: 1,
  quantity: 1,
  shipDate: '2030-01-01T00:00:00Z',
  complete: false,
};

describe('routing', () => {
  it('returns 404 route_not_found for a path no operation has', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo);
    for (const path of [
      '/v1/unicorns',
      '/v1/pets/1/extra',
      '/v1/pets/',
      '/nowhere',
    ]) {
      const res = await fetch(`${gateway.url}${path}`, { headers: admin });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({
        code: 'route_not_found',
        status: 404,
      });
    }
  });

  it('returns 405 method_not_allowed with Allow for a known path and another method', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo);
    const res = await fetch(`${gateway.url}/v1/store/inventory`, {
      method: 'POST',
      headers: admin,
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toMatchObject({
      code: 'method_not_allowed',
      status: 405,
    });

    const pet = await fetch(`${gateway.url}/v1/pets/1`, { method: 'POST' });
    expect(pet.status).toBe(405);
    expect(pet.headers.get('allow')).toBe(
      'DELETE, GET, HEAD, OPTIONS, PATCH, PUT',
    );
  });

  it('answers OPTIONS on a known path with 204 and Allow', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo);
    const res = await fetch(`${gateway.url}/v1/accounts`, {
      method: 'OPTIONS',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('OPTIONS, POST');
  });

  it('sends pets operations to pets and store operations to store, path, query and body intact', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((request, res) => {
      sendJson(
        res,
        201,
        { id: 7, name: 'Rex', categoryId: 1, status: 'available' },
        {
          Location: '/v2/pets/7',
          'X-Powered-By': 'pets',
        },
      );
    });
    await using store = await startFakeService((_request, res) => {
      sendJson(res, 200, [{ id: 1 }], {
        Link: '</v1/store/orders?limit=1&cursor=abc>; rel="next"',
      });
    });
    await using gateway = await startTestGateway(mongo, {
      env: {
        PETS_URL: pets.url,
        STORE_URL: store.url,
      },
    });
    const body = '{"name": "Rex",  "categoryId": 1, "extra": "\u00e9"}';

    const created = await fetch(`${gateway.url}/v1/pets?trace=%20a&x=1&x=2`, {
      method: 'POST',
      headers: {
        ...admin,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'k-1',
      },
      body,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/v2/pets/7');
    expect(created.headers.get('x-powered-by')).toBeNull();
    expect(await created.json()).toEqual({
      id: 7,
      name: 'Rex',
      categoryId: 1,
      status: 'available',
    });
    expect(pets.received).toHaveLength(1);
    expect(pets.received[0]).toMatchObject({
      method: 'POST',
      url: '/v1/pets?trace=%20a&x=1&x=2',
      body,
      headers: expect.objectContaining({
        'content-type': 'application/json',
        'idempotency-key': 'k-1',
      }) as unknown,
    });

    const orders = await fetch(`${gateway.url}/v1/store/orders?limit=1`, {
      headers: admin,
    });
    expect(orders.status).toBe(200);
    expect(orders.headers.get('link')).toBe(
      '</v1/store/orders?limit=1&cursor=abc>; rel="next"',
    );
    expect(await orders.json()).toEqual([{ id: 1 }]);
    expect(store.received.map(({ method, url }) => `${method} ${url}`)).toEqual(
      ['GET /v1/store/orders?limit=1'],
    );
    expect(pets.received).toHaveLength(1);
  });

  it('sends its own identity headers and drops the ones a client sent', async ({
    mongo,
  }) => {
    await using pets = await startFakeService();
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const customer = await signUp(gateway.url);

    // node:http, because fetch does not let a client send its own Connection header.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${gateway.url}/v1/pets`, {
        headers: {
          ...bearer(customer.apiKey),
          'X-Account-Id': 'acct_admin',
          'X-Account-Role': 'admin',
          'X-Internal-Token': 'forged-token',
          'X-Request-Id': 'req-identity',
          Connection: 'keep-alive, X-Secret-Hop',
          'X-Secret-Hop': 'hop',
          'Proxy-Authorization': 'Basic abc',
          'Accept-Encoding': 'gzip, br',
          'Accept-Language': 'en',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const headers: IncomingHttpHeaders = pets.received[0]?.headers ?? {};
    expect(headers['x-account-id']).toBe(customer.accountId);
    expect(headers['x-account-role']).toBe('customer');
    expect(headers['x-internal-token']).toBe(testInternalToken);
    expect(headers['x-request-id']).toBe('req-identity');
    expect(headers.authorization).toBeUndefined();
    expect(headers['proxy-authorization']).toBeUndefined();
    expect(headers['x-secret-hop']).toBeUndefined();
    // The gateway reads every answer, so it asks for it uncompressed; other headers pass.
    expect(headers['accept-encoding']).toBeUndefined();
    expect(headers['accept-language']).toBe('en');
  });

  it('passes an upstream error through with its status and body', async ({
    mongo,
  }) => {
    const notFound = {
      code: 'not_found',
      message: '[pets] no pet 9',
      status: 404,
      requestId: 'r',
    };
    await using pets = await startFakeService((_request, res) => {
      sendJson(res, 404, notFound);
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets/9`, { headers: admin });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(notFound);
  });

  it('passes a 204 through without a body', async ({ mongo }) => {
    await using store = await startFakeService((_request, res) => {
      res.writeHead(204);
      res.end();
    });
    await using gateway = await startTestGateway(mongo, {
      env: { STORE_URL: store.url },
    });
    const res = await fetch(`${gateway.url}/v1/store/orders/1`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('passes the deprecation headers through', async ({ mongo }) => {
    await using pets = await startFakeService((_request, res) => {
      sendJson(
        res,
        200,
        { id: 1 },
        {
          Deprecation: '@1767225600',
          Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
          Link: '</docs#getPet>; rel="deprecation"',
        },
      );
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets/1`, { headers: admin });
    expect(res.headers.get('deprecation')).toBe('@1767225600');
    expect(res.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(res.headers.get('link')).toBe('</docs#getPet>; rel="deprecation"');
  });

  it('marks its own answers to GET /v1/pets/{petId} deprecated, with a Link to the /v2 successor', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo);
    const deprecated = await fetch(`${gateway.url}/v1/pets/7`);
    expect(deprecated.status).toBe(401);
    expect(deprecated.headers.get('deprecation')).toBe('@1767225600');
    expect(deprecated.headers.get('link')).toBe(
      '</docs#tag/pets-v1/GET/v1/pets/{petId}>; rel="deprecation"; type="text/html", </v2/pets/7>; rel="successor-version"',
    );

    const current = await fetch(`${gateway.url}/v2/pets/7`);
    expect(current.status).toBe(401);
    expect(current.headers.get('deprecation')).toBeNull();
    expect(current.headers.get('sunset')).toBeNull();
    expect(current.headers.get('link')).toBeNull();
  });

  it('sends /v2 operations to their service with the path intact', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((_request, res) => {
      sendJson(res, 200, {
        id: 1,
        name: 'Rex',
        categoryId: 1,
        status: 'available',
      });
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v2/pets/1`, { headers: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('api-version')).toBe('2.0.0');
    expect(pets.received[0]).toMatchObject({
      method: 'GET',
      url: '/v2/pets/1',
    });
  });

  it('streams a chunked body through and refuses one over 64 KiB with 413', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((request, res) => {
      sendJson(res, 200, { length: request.body.length });
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const chunked = (text: string) =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      });
    const small = await fetch(`${gateway.url}/v1/pets`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: chunked('{"name":"Rex","categoryId":1}'),
      duplex: 'half',
    });
    expect(await small.json()).toEqual({ length: 29 });

    const big = JSON.stringify({ name: 'x'.repeat(70 * 1024), categoryId: 1 });
    const announced = await fetch(`${gateway.url}/v1/pets`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: big,
    });
    expect(announced.status).toBe(413);
    expect(await announced.json()).toMatchObject({
      code: 'payload_too_large',
      status: 413,
    });

    const streamed = await fetch(`${gateway.url}/v1/pets`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: chunked(big),
      duplex: 'half',
    });
    expect(streamed.status).toBe(413);
    expect(pets.received).toHaveLength(1);
  });
});

/** Writes `text` on a new connection to `url` and reads until the server closes it. */
function exchangeRaw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.setEncoding('utf-8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('close', () => {
      resolve(answer);
    });
    socket.on('error', reject);
    socket.write(text);
  });
}

describe('broken request bytes', () => {
  it('does not forward a body whose chunked encoding breaks, so no service waits for it', async ({
    mongo,
  }) => {
    await using pets = await startFakeService();
    await using gateway = await startTestGateway(mongo, {
      env: {
        PETS_URL: pets.url,
        UPSTREAM_TIMEOUT_MS: '30000',
      },
    });
    const answer = await exchangeRaw(
      gateway.url,
      'POST /v1/pets HTTP/1.1\r\nHost: gateway\r\n' +
        `Authorization: Bearer ${ADMIN_API_KEY}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\nX-Request-Id: broken-chunks\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    // Node's HTTP parser answers the broken request itself, before the gateway's code can.
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    // The gateway is done with the request at once, not when a service gives up waiting (30 s).
    const line = await vi.waitUntil(
      () =>
        gateway.logs
          .text()
          .split('\n')
          .find(
            (text) =>
              text.includes('"requestId":"broken-chunks"') &&
              text.includes('"path"'),
          ),
      { timeout: 10_000 },
    );
    expect(line).not.toContain('"status":504');
    expect(pets.received).toEqual([]);
  });
});

describe('upstream failures', () => {
  it('returns 504 upstream_timeout after the timeout, answering other requests meanwhile', async ({
    mongo,
  }) => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await using store = await startFakeService(async (request, res) => {
      if (request.url.startsWith('/v1/store/inventory')) await released;
      sendJson(res, 200, []);
    });
    await using gateway = await startTestGateway(mongo, {
      env: {
        STORE_URL: store.url,
        UPSTREAM_TIMEOUT_MS: '3000',
      },
    });
    // The admin's key is looked up once beforehand, so the requests below only wait on the store.
    expect(
      (await fetch(`${gateway.url}/v1/store/orders`, { headers: admin }))
        .status,
    ).toBe(200);
    try {
      let slowDone = false;
      const slow = fetch(`${gateway.url}/v1/store/inventory`, {
        headers: admin,
      }).then((res) => {
        slowDone = true;
        return res;
      });
      const fast = await fetch(`${gateway.url}/v1/store/orders`, {
        headers: admin,
      });
      expect(fast.status).toBe(200);
      const health = await fetch(`${gateway.url}/health`);
      expect(health.status).toBe(200);
      expect(slowDone).toBe(false);

      const res = await slow;
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({
        code: 'upstream_timeout',
        status: 504,
      });
    } finally {
      release();
    }
  });

  it('returns 503 service_unavailable naming the service when its port is closed', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: {
        STORE_URL: `http://127.0.0.1:${await freePort()}`,
      },
    });
    const res = await fetch(`${gateway.url}/v1/store/orders`, {
      headers: { ...admin, 'X-Request-Id': 'req-503' },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      code: 'service_unavailable',
      message: '[gateway] store is unavailable',
      status: 503,
      requestId: 'req-503',
    });
  });

  it('returns 502 bad_gateway for an answer that is not JSON', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<h1>hello</h1>');
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets`, { headers: admin });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({
      code: 'bad_gateway',
      status: 502,
    });
  });

  it('returns 502 for JSON that does not parse and for an error body that is not an Error', async ({
    mongo,
  }) => {
    const answers = [
      { status: 200, body: '{"id": 1,' },
      { status: 500, body: '{"error": "boom"}' },
      { status: 404, body: '{"code":"not_found","message":"x","status":400}' },
    ];
    let next = 0;
    await using pets = await startFakeService((_request, res) => {
      const answer = answers[next++] ?? { status: 200, body: '{}' };
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(answer.body);
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    for (let i = 0; i < answers.length; i++) {
      const res = await fetch(`${gateway.url}/v1/pets`, { headers: admin });
      expect(res.status).toBe(502);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('bad_gateway');
      expect(body.message).not.toContain('boom');
    }
  });

  it('returns 502 when the service breaks the connection in the middle of its answer', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((_request, res, req) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': '100',
      });
      res.write('{"id": 1, "na');
      setImmediate(() => req.socket.destroy());
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets/1`, { headers: admin });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      code: 'bad_gateway',
      status: 502,
    });
  });

  it('returns 502 when the service answers something that is not HTTP', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((_request, _res, req) => {
      req.socket.end('SSH-2.0-OpenSSH\r\n\r\n');
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets`, { headers: admin });
    expect(res.status).toBe(502);
  });

  it('returns 502 when the service refuses the gateway’s internal token', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((_request, res) => {
      sendJson(res, 401, {
        code: 'unauthorized',
        message: 'this service only answers the gateway',
        status: 401,
      });
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets`, { headers: admin });
    expect(res.status).toBe(502);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('sends a GET once more when the service drops the connection before answering', async ({
    mongo,
  }) => {
    let calls = 0;
    await using pets = await startFakeService((_request, res, req) => {
      // The first request meets a keep-alive connection the service has just closed.
      if (++calls === 1) req.socket.destroy();
      else
        sendJson(res, 200, [
          { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        ]);
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets`, { headers: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    ]);
    expect(pets.received).toHaveLength(2);
  });

  it('sends a POST, body and all, to another replica when one refuses the connection', async ({
    mongo,
  }) => {
    await using store = await startFakeService((_request, res) => {
      sendJson(res, 201, anOrder);
    });
    const refusing = `http://127.0.0.1:${await freePort()}`;
    await using gateway = await startTestGateway(mongo, {
      env: { STORE_URL: `${refusing},${store.url}` },
    });
    for (let order = 0; order < 4; order++) {
      const res = await fetch(`${gateway.url}/v1/store/orders`, {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ petId: 1, quantity: 1 }),
      });
      expect(res.status).toBe(201);
    }
    expect(store.received).toHaveLength(4);
    expect(store.received.map((request) => request.body)).toEqual(
      Array(4).fill(JSON.stringify({ petId: 1, quantity: 1 })),
    );
  });

  it('sends a DELETE, and a POST with an Idempotency-Key, once more when the connection drops', async ({
    mongo,
  }) => {
    let calls = 0;
    await using store = await startFakeService((request, res, req) => {
      // Every first try meets a connection the service drops before answering.
      if (++calls % 2 === 1) req.socket.destroy();
      else if (request.method === 'DELETE') res.writeHead(204).end();
      else sendJson(res, 201, anOrder);
    });
    await using gateway = await startTestGateway(mongo, {
      env: { STORE_URL: store.url },
    });
    const cancelled = await fetch(`${gateway.url}/v1/store/orders/7`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(cancelled.status).toBe(204);
    const placed = await fetch(`${gateway.url}/v1/store/orders`, {
      method: 'POST',
      headers: {
        ...admin,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'k-1',
      },
      body: JSON.stringify({ petId: 1, quantity: 1 }),
    });
    expect(placed.status).toBe(201);
    expect(await placed.json()).toEqual(anOrder);
    expect(store.received.map((request) => request.method)).toEqual([
      'DELETE',
      'DELETE',
      'POST',
      'POST',
    ]);
    expect(store.received.slice(2).map((request) => request.body)).toEqual(
      Array(2).fill(JSON.stringify({ petId: 1, quantity: 1 })),
    );
  });

  it('never sends a POST without an Idempotency-Key twice: a dropped connection is 503', async ({
    mongo,
  }) => {
    await using store = await startFakeService((_request, _res, req) => {
      req.socket.destroy();
    });
    await using gateway = await startTestGateway(mongo, {
      env: { STORE_URL: store.url },
    });
    const res = await fetch(`${gateway.url}/v1/store/orders`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ petId: 1, quantity: 1 }),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'service_unavailable' });
    expect(store.received).toHaveLength(1);
  });

  it('returns 502 for an answer larger than 8 MiB', async ({ mongo }) => {
    await using pets = await startFakeService((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`[${'"x",'.repeat(2 * 1024 * 1024)}"x"]`);
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const res = await fetch(`${gateway.url}/v1/pets`, { headers: admin });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'bad_gateway' });
  });

  it('stops waiting for the service when the client leaves, and logs one info line with 499', async ({
    mongo,
  }) => {
    let upstreamClosed = false;
    await using pets = await startFakeService(async (_request, _res, req) => {
      await new Promise<void>((resolve) => req.socket.once('close', resolve));
      upstreamClosed = true;
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    // The admin's key is looked up first, so the request below only waits on pets.
    await fetch(`${gateway.url}/v1/accounts/me`, { headers: admin });
    const client = new AbortController();
    const leaving = fetch(`${gateway.url}/v1/pets`, {
      headers: admin,
      signal: client.signal,
    });
    await vi.waitUntil(() => pets.received.length > 0, { timeout: 10_000 });
    client.abort();
    await expect(leaving).rejects.toThrow();
    await vi.waitUntil(() => upstreamClosed, { timeout: 10_000 });
    const lines = () =>
      gateway.logs
        .text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const left = await vi.waitUntil(
      () => {
        const found = lines().filter((line) => line.path === '/v1/pets');
        return found.length > 0 && found;
      },
      { timeout: 10_000 },
    );
    expect(left).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'client closed request',
        status: 499,
      }),
    ]);
    expect(lines().filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

describe('a body sent slowly', () => {
  it('reaches the service only once it has come whole, holding none of its connections', async ({
    mongo,
  }) => {
    const started: string[] = [];
    await using pets = await serveHttp(async (req, res) => {
      started.push(req.method ?? '');
      req.resume();
      await once(req, 'end');
      sendJson(res, 200, { id: 1 });
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const { hostname, port } = new URL(gateway.url);
    const socket = connect(Number(port), hostname);
    socket.setEncoding('utf-8');
    const body = '{"name":"Rex","categoryId":1}';
    socket.write(
      'POST /v1/pets HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${ADMIN_API_KEY}\r\nContent-Length: ${body.length}\r\n\r\n{`,
    );
    // Another request, sent while the first body is still coming, is served first.
    expect(
      (await fetch(`${gateway.url}/v1/pets`, { headers: admin })).status,
    ).toBe(200);
    expect(started).toEqual(['GET']);

    socket.write(body.slice(1));
    const [answer] = (await once(socket, 'data')) as [string];
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(started).toEqual(['GET', 'POST']);
  });
});
