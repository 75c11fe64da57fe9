import { startMongo } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { connectMongo } from './mongo.js';
import { route, startTestService } from './test-support/test-service.js';

async function expectOk(path: string) {
  await using service = await startTestService([]);
  const res = await fetch(`${service.url}${path}`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok' });
}

/** 503 `service_unavailable` naming `part`, with `reason` in the details. */
async function expectNotReady(url: string, part: string, reason: string) {
  const res = await fetch(url);
  expect(res.status).toBe(503);
  expect(await res.json()).toMatchObject({
    code: 'service_unavailable',
    message: `test is not ready: ${part} unavailable`,
    details: [{ path: part, message: reason }],
  });
}

describe('/health', () => {
  it('answers 200 {"status":"ok"} while the process is up', async () => {
    await expectOk('/health');
  });

  it('answers 405 with Allow for another method', async () => {
    await using service = await startTestService([]);
    const res = await fetch(`${service.url}/health`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toMatchObject({
      code: 'method_not_allowed',
      status: 405,
    });
  });
});

describe('/ready', () => {
  it('answers 200 with no readiness checks', async () => {
    await expectOk('/ready');
  });

  it('answers 503 naming a check that does not answer in time', async () => {
    await using service = await startTestService([], {
      readiness: {
        fine: () => Promise.resolve(),
        pets: () => new Promise(() => {}),
      },
      readinessTimeoutMs: 50,
    });
    await expectNotReady(
      `${service.url}/ready`,
      'pets',
      'no answer within 50 ms',
    );
  });

  it('asks the dependencies only with ?deep=true', async () => {
    await using service = await startTestService([], {
      readiness: { database: () => Promise.resolve() },
      dependencies: { store: () => Promise.reject(new Error('store is down')) },
      readinessTimeoutMs: 50,
    });
    const shallow = await fetch(`${service.url}/ready`);
    expect(shallow.status).toBe(200);
    await expectNotReady(
      `${service.url}/ready?deep=true`,
      'store',
      'unavailable',
    );
  });

  it('answers 200 while the database is up and 503 naming it once it is stopped', async () => {
    const mongo = await startMongo();
    const client = await connectMongo(mongo.uri, {
      appName: 'service-kit-test',
    });
    try {
      const db = client.db(mongo.databaseName('ready'));
      await using service = await startTestService(
        [
          route('GET', '/pets', async (ctx) => {
            ctx.body = await db.collection('pets').find().toArray();
          }),
        ],
        { readiness: { database: () => db.command({ ping: 1 }) } },
      );

      const up = await fetch(`${service.url}/ready`);
      expect(up.status).toBe(200);
      expect(await up.json()).toEqual({ status: 'ok' });

      await mongo.stop();

      const down = await fetch(`${service.url}/ready`, {
        headers: { 'X-Request-Id': 'req-r' },
      });
      expect(down.status).toBe(503);
      expect(down.headers.get('content-type')).toBe(
        'application/json; charset=utf-8',
      );
      const body = (await down.json()) as {
        message: string;
        details: { path: string }[];
      };
      expect(body).toMatchObject({
        code: 'service_unavailable',
        status: 503,
        requestId: 'req-r',
        message: 'test is not ready: database unavailable',
      });
      expect(body.details.map((detail) => detail.path)).toEqual(['database']);
      expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|Mongo/);

      const query = await fetch(`${service.url}/pets`);
      expect(query.status).toBe(503);
      expect(await query.json()).toMatchObject({
        code: 'service_unavailable',
        message: 'database unavailable',
      });
    } finally {
      await client.close();
      await mongo.stop();
    }
  });
});
