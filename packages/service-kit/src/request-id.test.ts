import { serveHttp } from '@petstore/testkit';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from './app-error.js';
import { createService } from './create-service.js';
import { createLogger } from './logger.js';
import { route, startTestService } from './test-support/test-service.js';

const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const ok = route('GET', '/ok', (ctx) => {
  ctx.log.info('handling');
  ctx.body = { requestId: ctx.requestId };
});
const fails = route('GET', '/fails', () => {
  throw new AppError('not_found', 'no such thing');
});

describe('request id', () => {
  it('keeps a sane X-Request-Id from the client and echoes it', async () => {
    await using service = await startTestService([ok]);
    const res = await fetch(`${service.url}/ok`, {
      headers: { 'X-Request-Id': 'gw:abc-123.4_5' },
    });
    expect(res.headers.get('x-request-id')).toBe('gw:abc-123.4_5');
    expect(await res.json()).toEqual({ requestId: 'gw:abc-123.4_5' });
  });

  it('generates a UUID when the client sends none', async () => {
    await using service = await startTestService([ok]);
    const res = await fetch(`${service.url}/ok`);
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with spaces', 'a b'],
    ['with percent escapes', 'abc%0d%0aSet-Cookie:x'],
    ['with quotes', '"abc"'],
  ])('replaces an id %s with a new UUID', async (_, insane) => {
    await using service = await startTestService([ok]);
    const res = await fetch(`${service.url}/ok`, {
      headers: { 'X-Request-Id': insane },
    });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('accepts an id of exactly 128 characters', async () => {
    await using service = await startTestService([ok]);
    const id = 'x'.repeat(128);
    const res = await fetch(`${service.url}/ok`, {
      headers: { 'X-Request-Id': id },
    });
    expect(res.headers.get('x-request-id')).toBe(id);
  });

  it('puts the request id in error bodies', async () => {
    await using service = await startTestService([fails]);
    const res = await fetch(`${service.url}/fails`, {
      headers: { 'X-Request-Id': 'req-42' },
    });
    expect(res.headers.get('x-request-id')).toBe('req-42');
    expect(await res.json()).toMatchObject({
      code: 'not_found',
      requestId: 'req-42',
    });
  });

  it('puts the request id on every log line of the request', async () => {
    await using service = await startTestService([ok]);
    await fetch(`${service.url}/ok`, { headers: { 'X-Request-Id': 'req-7' } });
    const lines = service.logs.lines();
    expect(lines.map((line) => line.msg)).toEqual([
      'handling',
      'request completed',
    ]);
    expect(lines.every((line) => line.requestId === 'req-7')).toBe(true);
  });

  describe('below the log level', () => {
    async function serviceLoggingAt(level: 'warn') {
      const written: string[] = [];
      const logger = createLogger({
        name: 'test',
        level,
        destination: { write: (line: string) => void written.push(line) },
      });
      const child = vi.spyOn(logger, 'child');
      const app = createService({
        name: 'test',
        logger,
        routers: [
          route('GET', '/quiet', (ctx) => {
            ctx.body = {};
          }),
          route('GET', '/warns', (ctx) => {
            ctx.log.warn('first');
            ctx.log.warn('second');
            ctx.body = {};
          }),
        ],
      });
      const served = await serveHttp(app.callback());
      const lines = () =>
        written.map((line) => JSON.parse(line) as Record<string, unknown>);
      return {
        url: served.url,
        child,
        lines,
        [Symbol.asyncDispose]: () => served[Symbol.asyncDispose](),
      };
    }

    it('binds no logger to a request that logs nothing', async () => {
      await using service = await serviceLoggingAt('warn');
      const res = await fetch(`${service.url}/quiet`, {
        headers: { 'X-Request-Id': 'req-9' },
      });
      expect(res.status).toBe(200);
      expect(service.child).not.toHaveBeenCalled();
      expect(service.lines()).toEqual([]);
    });

    it('binds the logger once, on first use, with the request id', async () => {
      await using service = await serviceLoggingAt('warn');
      await fetch(`${service.url}/warns`, {
        headers: { 'X-Request-Id': 'req-10' },
      });
      expect(service.child).toHaveBeenCalledTimes(1);
      expect(service.lines().map((line) => [line.msg, line.requestId])).toEqual(
        [
          ['first', 'req-10'],
          ['second', 'req-10'],
        ],
      );
    });
  });
});
