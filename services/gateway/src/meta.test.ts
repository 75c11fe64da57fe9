import { freePort, testInternalToken } from '@petstore/testkit';
import { describe, expect } from 'vitest';
import {
  sendJson,
  startFakeService,
  type FakeService,
} from './test-support/fake-service.js';
import {
  ADMIN_API_KEY,
  bearer,
  startTestGateway,
  it,
} from './test-support/gateway-harness.js';

/** A stand-in service whose `/ready` answers 200 only with the internal token. */
function readyService(): Promise<FakeService> {
  return startFakeService((request, res) => {
    if (
      request.url === '/ready' &&
      request.headers['x-internal-token'] === testInternalToken
    ) {
      sendJson(res, 200, { status: 'ok' });
    } else {
      sendJson(res, 401, { code: 'unauthorized', message: 'no', status: 401 });
    }
  });
}

/** `1.0.0` under `/v1`; `2.0.0` under `/v2` and outside the versions (meta, unknown paths). */
function expectEdgeHeaders(res: Response) {
  const version = new URL(res.url).pathname.startsWith('/v1/')
    ? '1.0.0'
    : '2.0.0';
  expect(res.headers.get('api-version'), res.url).toBe(version);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-security-policy')).toContain(
    "frame-ancestors 'none'",
  );
}

describe('headers on every answer', () => {
  it('sends API-Version and the security headers on successes, errors and meta answers', async ({
    mongo,
  }) => {
    await using pets = await startFakeService((_request, res) => {
      sendJson(res, 200, []);
    });
    await using gateway = await startTestGateway(mongo, {
      env: { PETS_URL: pets.url },
    });
    const answers = await Promise.all([
      fetch(`${gateway.url}/health`),
      fetch(`${gateway.url}/openapi.json`),
      fetch(`${gateway.url}/docs`),
      fetch(`${gateway.url}/v1/pets`, { headers: bearer(ADMIN_API_KEY) }),
      fetch(`${gateway.url}/v2/pets`, { headers: bearer(ADMIN_API_KEY) }),
      fetch(`${gateway.url}/v1/accounts/me`, {
        headers: bearer(ADMIN_API_KEY),
      }),
      fetch(`${gateway.url}/v2/accounts/me`, {
        headers: bearer(ADMIN_API_KEY),
      }),
      fetch(`${gateway.url}/v1/accounts/me`),
      fetch(`${gateway.url}/v2/accounts/me`),
      fetch(`${gateway.url}/v1/nothing`),
      fetch(`${gateway.url}/v2/nothing`),
      fetch(`${gateway.url}/health`, { method: 'POST' }),
      fetch(`${gateway.url}/v1/accounts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{not json',
      }),
      fetch(`${gateway.url}/ready?deep=true`),
    ]);
    expect(answers.map((res) => res.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 401, 401, 404, 404, 405, 400, 503,
    ]);
    for (const res of answers) {
      expectEdgeHeaders(res);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    for (const res of answers.filter((answer) =>
      /\/v[12]\//.test(answer.url),
    )) {
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('/health and /ready', () => {
  it('answers /health with 200 {"status":"ok"} without a key', async ({
    gateway,
  }) => {
    const res = await fetch(`${gateway.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /ready?deep=true with 200 when its database and every service are ready', async ({
    mongo,
  }) => {
    await using pets = await readyService();
    await using store = await readyService();
    await using gateway = await startTestGateway(mongo, {
      env: {
        PETS_URL: pets.url,
        STORE_URL: store.url,
      },
    });
    const res = await fetch(`${gateway.url}/ready?deep=true`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /ready with 200 while a service is down: this gateway can still serve', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: {
        STORE_URL: `http://127.0.0.1:${await freePort()}`,
      },
    });
    const res = await fetch(`${gateway.url}/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /ready?deep=true with 503 naming the service that is down', async ({
    mongo,
  }) => {
    await using pets = await readyService();
    await using gateway = await startTestGateway(mongo, {
      env: {
        PETS_URL: pets.url,
        STORE_URL: `http://127.0.0.1:${await freePort()}`,
      },
    });
    const res = await fetch(`${gateway.url}/ready?deep=true`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as {
      code: string;
      message: string;
      details: unknown[];
    };
    expect(body).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(body.message).toContain('store');
    expect(body.message).not.toContain('pets');
    expect(body.details).toEqual([
      { path: 'store', message: expect.any(String) as string },
    ]);
  });

  it('answers /ready?deep=true with 503 when a service answers /ready with an error', async ({
    mongo,
  }) => {
    await using pets = await readyService();
    await using store = await startFakeService((_request, res) => {
      sendJson(res, 503, {
        code: 'service_unavailable',
        message: 'db down',
        status: 503,
      });
    });
    await using gateway = await startTestGateway(mongo, {
      env: {
        PETS_URL: pets.url,
        STORE_URL: store.url,
      },
    });
    const res = await fetch(`${gateway.url}/ready?deep=true`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { details: unknown }).details).toEqual([
      { path: 'store', message: 'unavailable' },
    ]);
  });
});

describe('/openapi.json and /docs', () => {
  it('serves the OpenAPI document with the configured public address as its server', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, {
      env: { PUBLIC_URL: 'https://api.example.com' },
    });
    const res = await fetch(`${gateway.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await res.json()) as {
      openapi: string;
      servers: unknown;
      paths: object;
    };
    expect(document.openapi).toBe('3.0.3');
    expect(document.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(Object.keys(document.paths)).toContain('/v1/pets');
    // Served over HTTPS, the API tells browsers to keep using it.
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('defaults the document’s server to the gateway’s own address', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, { env: { PORT: '0' } });
    const document = (await (
      await fetch(`${gateway.url}/openapi.json`)
    ).json()) as {
      servers: { url: string }[];
    };
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:0' }]);
  });

  it('serves /docs as a page that loads only same-origin assets, and serves the bundle', async ({
    gateway,
  }) => {
    const res = await fetch(`${gateway.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const html = await res.text();
    expect(html).toContain('<title>Petstore API reference</title>');
    const references = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) {
      expect(reference, reference).toMatch(/^(\/[^/]|data:)/);
    }
    expect(html).not.toMatch(/https?:\/\//);
    // The bundle mounts itself, with its defaults (remote fonts, AI agent), on these.
    expect(html).not.toMatch(/id="api-reference"|data-spec|data-configuration/);

    for (const path of references.filter((reference) =>
      reference.startsWith('/'),
    )) {
      const asset = await fetch(`${gateway.url}${path}`);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(
        /^application\/javascript/,
      );
      expect((await asset.text()).length).toBeGreaterThan(0);
    }
  });

  it('starts Scalar with everything that would reach outside turned off', async ({
    gateway,
  }) => {
    const init = await (await fetch(`${gateway.url}/docs/init.js`)).text();
    expect(init).toContain('"url":"/openapi.json"');
    expect(init).toContain('"withDefaultFonts":false');
    expect(init).toContain('"telemetry":false');
    expect(init).not.toContain('proxyUrl');
    const bundle = await fetch(`${gateway.url}/docs/scalar.js`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toContain('createApiReference');
  });
});
