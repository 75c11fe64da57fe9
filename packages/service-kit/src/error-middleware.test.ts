import { freePort } from '@petstore/testkit';
import { Readable } from 'node:stream';
import {
  MethodNotAllowedError,
  RequestValidationError,
  ResponseValidationError,
} from '@petstore/ts-rest-koa';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from './app-error.js';
import { route, startTestService } from './test-support/test-service.js';

function throwing(error: unknown) {
  return route('GET', '/throw', () => {
    throw error;
  });
}

async function getThrow(url: string) {
  const res = await fetch(`${url}/throw`, { headers: { 'X-Request-Id': 'req-err' } });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('error middleware', () => {
  it('answers an AppError with its code, status, details and headers as JSON', async () => {
    await using service = await startTestService([
      throwing(
        new AppError('rate_limited', 'too many requests', {
          details: [{ path: 'apiKey', message: 'over 100 requests/s' }],
          headers: { 'Retry-After': '1' },
        }),
      ),
    ]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(body).toEqual({
      code: 'rate_limited',
      message: 'too many requests',
      status: 429,
      requestId: 'req-err',
      details: [{ path: 'apiKey', message: 'over 100 requests/s' }],
    });
  });

  it('leaves details out when there are none', async () => {
    await using service = await startTestService([throwing(new AppError('conflict', 'taken'))]);
    const { body } = await getThrow(service.url);
    expect(body).toEqual({ code: 'conflict', message: 'taken', status: 409, requestId: 'req-err' });
  });

  it('answers a RequestValidationError with 400 validation_failed and its details', async () => {
    const details = [{ path: 'body.quantity', message: 'must be >= 1' }];
    await using service = await startTestService([throwing(new RequestValidationError(details))]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(400);
    expect(body).toEqual({
      code: 'validation_failed',
      message: 'body.quantity: must be >= 1',
      status: 400,
      requestId: 'req-err',
      details,
    });
  });

  it('answers a MethodNotAllowedError with 405 and an Allow header', async () => {
    await using service = await startTestService([
      throwing(new MethodNotAllowedError('GET', ['POST', 'PUT'])),
    ]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, PUT');
    expect(body).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('answers an unknown error with 500 internal_error and leaks neither message nor stack', async () => {
    await using service = await startTestService([
      throwing(new TypeError('secret detail: cannot read x of undefined')),
    ]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(500);
    expect(body).toEqual({
      code: 'internal_error',
      message: 'internal server error',
      status: 500,
      requestId: 'req-err',
    });
    expect(JSON.stringify(body)).not.toMatch(/secret detail|TypeError|at /);
  });

  it('logs an unknown error with the request id and the original error', async () => {
    await using service = await startTestService([throwing(new Error('the real reason'))]);
    await getThrow(service.url);
    const logged = service.logs.lines().find((line) => line.msg === 'internal server error');
    expect(logged).toMatchObject({
      level: 50,
      requestId: 'req-err',
      err: { message: 'the real reason', type: 'Error' },
    });
    expect((logged?.err as { stack: string }).stack).toContain('the real reason');
  });

  it('answers a thrown non-Error value with 500 internal_error', async () => {
    await using service = await startTestService([throwing('a string')]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(500);
    expect(body).toMatchObject({ code: 'internal_error' });
  });

  it('answers a ResponseValidationError with 500 internal_error, keeping the mismatch out', async () => {
    await using service = await startTestService([
      throwing(new ResponseValidationError('getPet', [{ path: 'body.id', message: 'Required' }])),
    ]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(500);
    expect(body).toMatchObject({ code: 'internal_error', message: 'internal server error' });
  });

  it('maps an exposed Koa http error to the code of its status', async () => {
    await using service = await startTestService([
      route('GET', '/throw', (ctx) => ctx.throw(403, 'not for you')),
    ]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(403);
    expect(body).toMatchObject({ code: 'forbidden', message: 'not for you', status: 403 });
  });

  it('keeps the message of an unexposed Koa http error private', async () => {
    await using service = await startTestService([
      route('GET', '/throw', (ctx) => ctx.throw(500, 'pool exhausted at db-3')),
    ]);
    const { res, body } = await getThrow(service.url);
    expect(res.status).toBe(500);
    expect(body).toMatchObject({ code: 'internal_error', message: 'internal server error' });
  });

  it('answers 503 service_unavailable when the database cannot be reached', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await freePort()}/`, {
      serverSelectionTimeoutMS: 200,
    });
    try {
      await using service = await startTestService([
        route('GET', '/throw', async (ctx) => {
          ctx.body = await client.db('pets').collection('pets').findOne({});
        }),
      ]);
      const { res, body } = await getThrow(service.url);
      expect(res.status).toBe(503);
      expect(body).toEqual({
        code: 'service_unavailable',
        message: 'database unavailable',
        status: 503,
        requestId: 'req-err',
      });
    } finally {
      await client.close();
    }
  });

  it('answers 404 route_not_found when no route matches', async () => {
    await using service = await startTestService([]);
    const res = await fetch(`${service.url}/nowhere`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 'route_not_found',
      message: 'no operation for DELETE /nowhere',
      status: 404,
    });
  });

  it('logs an error Koa meets outside the middleware instead of printing it to stderr', async () => {
    const consoleError = vi.spyOn(console, 'error');
    await using service = await startTestService([
      route('GET', '/throw', (ctx) => {
        ctx.type = 'text/plain';
        ctx.body = new Readable({
          read() {
            this.destroy(new Error('disk gone'));
          },
        });
      }),
    ]);
    await fetch(`${service.url}/throw`)
      .then((res) => res.text())
      .catch(() => undefined);
    await vi.waitFor(() => {
      const logged = service.logs.lines().find((line) => line.level === 50);
      expect(logged?.err).toMatchObject({ message: 'disk gone' });
    });
    expect(consoleError).not.toHaveBeenCalled();
  });
});
