import { errorStatus, ErrorCodeSchema } from '@petstore/contract';
import { freePort } from '@petstore/testkit';
import { Readable } from 'node:stream';
import {
  MethodNotAllowedError,
  RequestValidationError,
  ResponseValidationError,
} from '@petstore/ts-rest-koa';
import type { Middleware } from 'koa';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from './app-error.js';
import { route, startTestService } from './test-support/test-service.js';

describe('AppError', () => {
  it.each(ErrorCodeSchema.options)(
    'takes the status of %s from the contract',
    (code) => {
      expect(new AppError(code, 'x').status).toBe(errorStatus[code]);
    },
  );

  it('keeps its code, message, details, headers and cause', () => {
    const cause = new Error('driver says no');
    const details = [{ path: 'body.petId', message: 'no such pet' }];
    const headers = { 'X-Reason': 'x' };
    const message = '[store] pet 7 does not exist';
    const error = new AppError('unknown_pet', message, {
      details,
      headers,
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'AppError',
      code: 'unknown_pet',
      status: 422,
      message,
    });
    expect(error).toMatchObject({ details, headers, cause });
  });
});

/** The response of a service whose `GET /throw` runs `handler`, and the service's logs. */
async function getThrow(handler: Middleware) {
  await using service = await startTestService([
    route('GET', '/throw', handler),
  ]);
  const res = await fetch(`${service.url}/throw`, {
    headers: { 'X-Request-Id': 'req-err' },
  });
  return {
    res,
    body: (await res.json()) as Record<string, unknown>,
    logs: service.logs,
  };
}

const throwing = (error: unknown) =>
  getThrow(() => {
    throw error;
  });

const requestId = 'req-err';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('error middleware', () => {
  it('answers an AppError with its code, status, details and headers as JSON', async () => {
    const details = [{ path: 'apiKey', message: 'over 100 requests/s' }];
    const headers = { 'Retry-After': '1' };
    const message = 'too many requests';
    const { res, body } = await throwing(
      new AppError('rate_limited', message, { details, headers }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
    expect(res.headers.get('retry-after')).toBe('1');
    expect(body).toEqual({
      code: 'rate_limited',
      message,
      status: 429,
      requestId,
      details,
    });
  });

  it('leaves details out when there are none', async () => {
    const { body } = await throwing(new AppError('conflict', 'taken'));
    expect(body).toEqual({
      code: 'conflict',
      message: 'taken',
      status: 409,
      requestId,
    });
  });

  it('answers a RequestValidationError with 400 validation_failed and its details', async () => {
    const details = [{ path: 'body.quantity', message: 'must be >= 1' }];
    const { res, body } = await throwing(new RequestValidationError(details));
    expect(res.status).toBe(400);
    const message = 'body.quantity: must be >= 1';
    expect(body).toEqual({
      code: 'validation_failed',
      message,
      status: 400,
      requestId,
      details,
    });
  });

  it('answers a MethodNotAllowedError with 405 and an Allow header', async () => {
    const { res, body } = await throwing(
      new MethodNotAllowedError('GET', ['POST', 'PUT']),
    );
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, PUT');
    expect(body).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('answers an unknown error with 500 internal_error and leaks neither message nor stack', async () => {
    const { res, body } = await throwing(
      new TypeError('secret detail: cannot read x of undefined'),
    );
    expect(res.status).toBe(500);
    const message = 'internal server error';
    expect(body).toEqual({
      code: 'internal_error',
      message,
      status: 500,
      requestId,
    });
    expect(JSON.stringify(body)).not.toMatch(/secret detail|TypeError|at /);
  });

  it('logs an unknown error with the request id and the original error', async () => {
    const { logs } = await throwing(new Error('the real reason'));
    const logged = logs
      .lines()
      .find((line) => line.msg === 'internal server error');
    const err = { message: 'the real reason', type: 'Error' };
    expect(logged).toMatchObject({ level: 50, requestId, err });
    expect((logged?.err as { stack: string }).stack).toContain(
      'the real reason',
    );
  });

  it('answers a thrown non-Error value with 500 internal_error', async () => {
    const { res, body } = await throwing('a string');
    expect(res.status).toBe(500);
    expect(body).toMatchObject({ code: 'internal_error' });
  });

  it('answers a ResponseValidationError with 500 internal_error, keeping the mismatch out', async () => {
    const mismatch = [{ path: 'body.id', message: 'Required' }];
    const { res, body } = await throwing(
      new ResponseValidationError('getPet', mismatch),
    );
    expect(res.status).toBe(500);
    expect(body).toMatchObject({
      code: 'internal_error',
      message: 'internal server error',
    });
  });

  it('maps an exposed Koa http error to the code of its status', async () => {
    const { res, body } = await getThrow((ctx) =>
      ctx.throw(403, 'not for you'),
    );
    expect(res.status).toBe(403);
    expect(body).toMatchObject({
      code: 'forbidden',
      message: 'not for you',
      status: 403,
    });
  });

  it('keeps the message of an unexposed Koa http error private', async () => {
    const { res, body } = await getThrow((ctx) =>
      ctx.throw(500, 'pool exhausted at db-3'),
    );
    expect(res.status).toBe(500);
    expect(body).toMatchObject({
      code: 'internal_error',
      message: 'internal server error',
    });
  });

  it('answers 503 service_unavailable when the database cannot be reached', async () => {
    const client = new MongoClient(`mongodb://127.0.0.1:${await freePort()}/`, {
      serverSelectionTimeoutMS: 200,
    });
    try {
      const { res, body } = await getThrow(async (ctx) => {
        ctx.body = await client.db('pets').collection('pets').findOne({});
      });
      expect(res.status).toBe(503);
      const message = 'database unavailable';
      expect(body).toEqual({
        code: 'service_unavailable',
        message,
        status: 503,
        requestId,
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
