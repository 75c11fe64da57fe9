import { test } from '@petstore/testkit/vitest';
import Koa from 'koa';
import { describe, expect } from 'vitest';
import type { ServiceConfig } from './config.js';
import { startService, type ServiceSetUp } from './run-service.js';
import { captureLogs } from './test-support/captured-logs.js';

function config(uri: string, database: string): ServiceConfig {
  return {
    http: { host: '127.0.0.1', port: 0, drainMs: 0 },
    mongo: { uri, database },
    internalToken: 'x'.repeat(32),
    logLevel: 'info',
    metrics: { port: undefined },
  };
}

function helloApp() {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { hello: 'world' };
  });
  return app;
}

describe('startService', () => {
  test('serves what set-up built; closing runs its hooks last first, while the database is open', async ({
    mongo,
  }) => {
    const done: string[] = [];
    const hook =
      (name: string, { database }: ServiceSetUp) =>
      async () => {
        await database.db.command({ ping: 1 });
        done.push(name);
      };
    const service = await startService({
      name: 'test',
      config: config(mongo.uri, mongo.databaseName('start')),
      logger: captureLogs().logger,
      signals: [],
      setUp: (setUp) => {
        setUp.onShutdown(hook('first', setUp));
        setUp.onShutdown(hook('second', setUp));
        return Promise.resolve({
          app: helloApp(),
          onListening: () => done.push('listening'),
        });
      },
    });
    const answer = await fetch(service.url);
    expect(await answer.json()).toEqual({ hello: 'world' });
    expect(done).toEqual(['listening']);

    await service.close();
    expect(done).toEqual(['listening', 'second', 'first']);
  });

  test('when set-up fails, undoes what it had registered and throws its error', async ({
    mongo,
  }) => {
    const logs = captureLogs();
    const done: string[] = [];
    const failing = startService({
      name: 'test',
      config: config(mongo.uri, mongo.databaseName('start')),
      logger: logs.logger,
      signals: [],
      setUp: ({ onShutdown }) => {
        onShutdown(() => void done.push('undone'));
        onShutdown(() => Promise.reject(new Error('cannot undo')));
        return Promise.reject(new Error('indexes failed'));
      },
    });
    await expect(failing).rejects.toThrow('indexes failed');
    expect(done).toEqual(['undone']);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ msg: 'shutdown hook failed' }),
    );
  });
});
