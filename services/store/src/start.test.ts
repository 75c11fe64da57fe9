import { accounts, callHttp, startMongo } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { startStore } from './start.js';
import { storeConfig, testLogger } from './test-support/stack.js';

describe('startStore', () => {
  it('serves /health and /ready on 127.0.0.1, and everything else only with the internal token', async () => {
    await using mongo = await startMongo();
    await using store = await startStore(
      storeConfig(mongo, 'http://127.0.0.1:9'),
      {
        signals: [],
        logger: testLogger('store'),
      },
    );
    expect(store.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const path of ['/health', '/ready']) {
      const answer = await callHttp(store.url, 'GET', path, { as: 'nobody' });
      expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
    }
    const untrusted = await callHttp(store.url, 'GET', '/v1/store/inventory', {
      as: 'nobody',
    });
    expect(untrusted).toMatchObject({
      status: 401,
      body: { code: 'unauthorized' },
    });
    const trusted = await callHttp(store.url, 'GET', '/v1/store/inventory', {
      as: 'service',
    });
    expect(trusted).toMatchObject({ status: 200, body: [] });
    const unknown = await callHttp(store.url, 'GET', '/v1/store/nothing-here', {
      as: accounts.admin,
    });
    expect(unknown).toMatchObject({
      status: 404,
      body: { code: 'route_not_found' },
    });
  });

  it('answers /ready 503 once its database is gone, while /health stays 200', async () => {
    const mongo = await startMongo();
    try {
      await using store = await startStore(
        storeConfig(mongo, 'http://127.0.0.1:9'),
        {
          signals: [],
          logger: testLogger('store'),
        },
      );
      await mongo.stop();
      await expect
        .poll(
          async () =>
            (await callHttp(store.url, 'GET', '/ready', { as: 'nobody' }))
              .status,
          {
            timeout: 15_000,
            interval: 100,
          },
        )
        .toBe(503);
      expect(
        (await callHttp(store.url, 'GET', '/health', { as: 'nobody' })).status,
      ).toBe(200);
    } finally {
      await mongo.stop();
    }
  });

  it('fails to start with EADDRINUSE when its port is taken', async () => {
    await using mongo = await startMongo();
    await using first = await startStore(
      storeConfig(mongo, 'http://127.0.0.1:9'),
      {
        signals: [],
        logger: testLogger('store'),
      },
    );
    const port = new URL(first.url).port;
    await expect(
      startStore(storeConfig(mongo, 'http://127.0.0.1:9', { PORT: port }), {
        signals: [],
        logger: testLogger('store'),
      }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});
