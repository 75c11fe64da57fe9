import { describe, expect, it } from 'vitest';
import { route, startTestService } from './test-support/test-service.js';

describe('request logging', () => {
  it('writes one line per request with method, path, status, duration and request id', async () => {
    await using service = await startTestService([
      route('POST', '/things', (ctx) => {
        ctx.status = 201;
        ctx.body = {};
      }),
    ]);
    await fetch(`${service.url}/things?secret=1`, {
      method: 'POST',
      headers: { 'X-Request-Id': 'req-1' },
    });
    const lines = service.logs.lines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'POST',
      path: '/things',
      status: 201,
      requestId: 'req-1',
      durationMs: expect.any(Number) as number,
    });
  });

  it('logs a failed request at error level', async () => {
    await using service = await startTestService([
      route('GET', '/boom', () => {
        throw new Error('boom');
      }),
    ]);
    await fetch(`${service.url}/boom`);
    const summary = service.logs
      .lines()
      .find((line) => line.msg === 'request failed');
    expect(summary).toMatchObject({ level: 50, status: 500, path: '/boom' });
  });

  it('logs a request whose client left (499) once, at info', async () => {
    await using service = await startTestService([
      route('GET', '/left', (ctx) => {
        ctx.status = 499;
      }),
    ]);
    await fetch(`${service.url}/left`);
    expect(service.logs.lines()).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'client closed request',
        status: 499,
      }),
    ]);
  });

  it('logs answered /health and /ready probes at debug, a failed one at error', async () => {
    await using service = await startTestService([], {
      readiness: { database: () => Promise.reject(new Error('down')) },
    });
    await fetch(`${service.url}/health`);
    await fetch(`${service.url}/ready`);
    const summaries = service.logs
      .lines()
      .filter((line) => line.method === 'GET');
    expect(summaries).toEqual([
      expect.objectContaining({ level: 20, path: '/health', status: 200 }),
      expect.objectContaining({ level: 50, path: '/ready', status: 503 }),
    ]);
  });

  it('never logs the value of an Authorization, X-Internal-Token or X-Api-Key header', async () => {
    await using service = await startTestService([
      route('GET', '/echo', (ctx) => {
        ctx.log.info(
          { headers: ctx.headers, req: { headers: ctx.headers } },
          'headers seen',
        );
        ctx.body = {};
      }),
    ]);
    await fetch(`${service.url}/echo`, {
      headers: {
        Authorization: 'Bearer psk_secretsecretsecretsecretsecret01',
        'X-Internal-Token': 'internal-secret-value',
        'X-Api-Key': 'api-key-secret-value',
        Cookie: 'session=cookie-secret-value',
      },
    });
    const text = service.logs.text();
    expect(text).toContain('headers seen');
    expect(text).not.toContain('psk_secret');
    expect(text).not.toContain('internal-secret-value');
    expect(text).not.toContain('api-key-secret-value');
    expect(text).not.toContain('cookie-secret-value');
  });
});
