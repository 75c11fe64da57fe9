import { callHttp, serveHttp } from '@petstore/testkit';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { AppError } from '../app-error.js';
import { errorMiddleware } from '../error-middleware.js';
import { afterWrites } from './after-writes.js';

describe('afterWrites', () => {
  it('calls back after each write that succeeded, never after a read or a refusal', async () => {
    const calls: string[] = [];
    const app = new Koa();
    app.use(errorMiddleware());
    app.use(afterWrites(() => calls.push('woken')));
    app.use((ctx) => {
      if (ctx.path === '/refused') throw new AppError('not_found', 'no such thing');
      ctx.status = ctx.method === 'POST' ? 201 : 200;
      ctx.body = {};
    });
    await using served = await serveHttp(app.callback());
    expect((await callHttp(served.url, 'GET', '/things')).status).toBe(200);
    expect((await callHttp(served.url, 'POST', '/refused', { body: {} })).status).toBe(404);
    expect(calls).toEqual([]);
    expect((await callHttp(served.url, 'POST', '/things', { body: {} })).status).toBe(201);
    expect((await callHttp(served.url, 'PATCH', '/things', { body: {} })).status).toBe(200);
    expect(calls).toEqual(['woken', 'woken']);
  });
});
