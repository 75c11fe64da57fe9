import { createKoaRouter } from '@petstore/ts-rest-koa';
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestService } from './test-support/test-service.js';

const PetSchema = z.object({ id: z.number().int(), name: z.string().min(1) });

const petsContract = {
  createPet: {
    method: 'POST',
    path: '/pets',
    body: z.object({ name: z.string().min(1) }),
    responses: { 201: PetSchema },
  },
  getPet: {
    method: 'GET',
    path: '/pets/:petId',
    pathParams: z.object({ petId: z.coerce.number().int().positive() }),
    responses: { 200: PetSchema },
  },
} as const;

function petsService() {
  const router = createKoaRouter(petsContract, {
    createPet: ({ body }) =>
      Promise.resolve({ status: 201 as const, body: { id: 1, ...body } }),
    getPet: ({ params }) =>
      Promise.resolve({
        status: 200 as const,
        body: { id: params.petId, name: 'Rex' },
      }),
  });
  return startTestService([router.routes()]);
}

/** Sends `method` with `body` over `agent`'s connection; the status and body of the answer. */
function send(url: string, agent: Agent, method: string, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    // Node's client sends a GET's or DELETE's body unannounced unless told its length.
    const headers =
      body === undefined
        ? {}
        : {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          };
    const req = request(`${url}/pets/1`, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('createService with a contract router', () => {
  it('parses the body and hands it to the contract handler', async () => {
    await using served = await petsService();
    const res = await fetch(`${served.url}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', extra: true }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: 1, name: 'Rex' });
  });

  it('answers a body that fails its schema with 400 validation_failed and details', async () => {
    await using served = await petsService();
    const res = await fetch(`${served.url}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-v' },
      body: JSON.stringify({ name: '' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      status: 400,
      requestId: 'req-v',
      details: [{ path: 'body.name', message: expect.any(String) as string }],
    });
  });

  it('refuses a body on GET, HEAD and DELETE with 400, and keeps the connection', async () => {
    await using served = await petsService();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    agent.on('free', (socket) => sockets.add(socket));
    for (const method of ['GET', 'HEAD', 'DELETE']) {
      const refused = await send(served.url, agent, method, '{"name":"Rex"}');
      expect(refused.status, method).toBe(400);
      if (method !== 'HEAD') {
        expect(JSON.parse(refused.body)).toMatchObject({
          code: 'validation_failed',
          message: `a ${method} request takes no body`,
        });
      }
    }
    expect(await send(served.url, agent, 'GET')).toMatchObject({ status: 200 });
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  it('answers a known path asked with another method with 405 and Allow', async () => {
    await using served = await petsService();
    const res = await fetch(`${served.url}/pets/1`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(await res.json()).toMatchObject({
      code: 'method_not_allowed',
      status: 405,
    });
  });

  it('answers a path the contract does not know with 404 route_not_found', async () => {
    await using served = await petsService();
    const res = await fetch(`${served.url}/cats`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 'route_not_found',
      status: 404,
    });
  });
});

describe('createService with middleware before the body', () => {
  it('runs beforeBody middleware before /health and before the JSON body is read', async () => {
    await using served = await startTestService([], {
      beforeBody: [
        async (ctx, next) => {
          ctx.set('X-Edge', 'yes');
          if (ctx.path !== '/raw') {
            await next();
            return;
          }
          const chunks: Buffer[] = [];
          for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
          ctx.body = { raw: Buffer.concat(chunks).toString('utf-8') };
        },
      ],
    });

    const health = await fetch(`${served.url}/health`);
    expect(health.headers.get('x-edge')).toBe('yes');

    const raw = await fetch(`${served.url}/raw`, {
      method: 'POST',
      body: 'not json',
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual({ raw: 'not json' });
  });

  it('answers an error thrown by beforeBody middleware in the Error shape, keeping its headers', async () => {
    await using served = await startTestService([], {
      beforeBody: [
        (ctx) => {
          ctx.set('X-Edge', 'yes');
          ctx.throw(403, 'no entry');
        },
      ],
    });
    const res = await fetch(`${served.url}/anything`);
    expect(res.status).toBe(403);
    expect(res.headers.get('x-edge')).toBe('yes');
    expect(await res.json()).toMatchObject({ code: 'forbidden', status: 403 });
  });
});
