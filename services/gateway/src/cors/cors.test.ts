import { it } from '@petstore/testkit/vitest';
import { describe, expect } from 'vitest';
import { startTestGateway } from '../test-support/gateway-harness.js';

const app = 'http://app.example.com:5173';
const env = { CORS_ORIGINS: `${app}, https://admin.example.com` };
const EXPOSED =
  'RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,Retry-After,X-Request-Id,Location,Link,' +
  'Idempotent-Replayed,API-Version,Deprecation,Sunset';

function preflight(url: string, origin: string, method = 'POST') {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers':
        'authorization,content-type,idempotency-key',
    },
  });
}

describe('CORS', () => {
  it('answers a preflight from an allowed origin with 204 before authentication', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, { env });

    const res = await preflight(`${gateway.url}/v1/store/orders`, app);

    expect(res.status).toBe(204);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'access-control-allow-origin': app,
      'access-control-allow-methods': 'GET,HEAD,PUT,POST,PATCH,DELETE',
      'access-control-allow-headers':
        'Authorization,Content-Type,Idempotency-Key,X-Request-Id',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    expect(res.headers.has('access-control-allow-credentials')).toBe(false);
  });

  it('lets an allowed origin read a response and its headers, errors included', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, { env });

    const unauthorized = await fetch(`${gateway.url}/v1/pets`, {
      headers: { Origin: app },
    });
    const unknown = await fetch(`${gateway.url}/v1/unicorns`, {
      headers: { Origin: app },
    });
    const created = await fetch(`${gateway.url}/v1/accounts`, {
      method: 'POST',
      headers: { Origin: app, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: `cors.${Date.now()}@example.com` }),
    });

    for (const [res, status] of [
      [unauthorized, 401],
      [unknown, 404],
      [created, 201],
    ] as const) {
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe(app);
      expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED);
      expect(res.headers.get('vary')).toContain('Origin');
    }
    expect(created.headers.get('ratelimit-remaining')).not.toBeNull();
  });

  it('gives another origin, or a request without one, no CORS header', async ({
    mongo,
  }) => {
    await using gateway = await startTestGateway(mongo, { env });

    const refused = await preflight(
      `${gateway.url}/v1/pets`,
      'https://evil.example.com',
    );
    const other = await fetch(`${gateway.url}/health`, {
      headers: { Origin: 'https://evil.example.com' },
    });
    const none = await fetch(`${gateway.url}/health`);

    // The preflight reaches the router, which answers OPTIONS as it always does.
    expect(refused.status).toBe(204);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    for (const res of [refused, other, none]) {
      expect(res.headers.has('access-control-allow-origin')).toBe(false);
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('sends no CORS header at all without CORS_ORIGINS', async ({ mongo }) => {
    await using gateway = await startTestGateway(mongo);

    const res = await preflight(`${gateway.url}/v1/pets`, app);

    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect(res.headers.has('access-control-allow-origin')).toBe(false);
    expect(res.headers.has('vary')).toBe(false);
  });
});
