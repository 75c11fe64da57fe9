import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startMongo } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { createService } from './create-service.js';
import { connectMongo } from './mongo.js';
import { runService, type RunServiceOptions } from './run-service.js';
import { captureLogs } from './test-support/captured-logs.js';
import { route } from './test-support/test-service.js';

/** A promise and the function that settles it, for holding a request open until a test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function slowApp(started: () => void, released: Promise<void>) {
  return createService({
    name: 'test',
    logger: captureLogs().logger,
    routers: [
      route('GET', '/slow', async (ctx) => {
        started();
        await released;
        ctx.body = { done: true };
      }),
    ],
  });
}

function run(
  options: Partial<RunServiceOptions> & Pick<RunServiceOptions, 'app'>,
) {
  return runService({
    host: '127.0.0.1',
    port: 0,
    logger: captureLogs().logger,
    signals: [],
    ...options,
  });
}

describe('runService', () => {
  it('serves the app on a free port and tells its url', async () => {
    const running = await run({ app: slowApp(() => {}, Promise.resolve()) });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${running.url}/health`);
      expect(await res.json()).toEqual({ status: 'ok' });
    } finally {
      await running.close();
    }
  });

  it('lets an in-flight request finish, refuses new ones, then closes the Mongo client', async () => {
    await using mongo = await startMongo();
    const client = await connectMongo(mongo.uri, {
      appName: 'service-kit-test',
    });
    const events: string[] = [];
    client.on('topologyClosed', () => events.push('mongo closed'));
    const started = gate();
    const released = gate();
    const running = await run({
      app: slowApp(started.open, released.opened),
      onShutdown: [
        async () => {
          events.push('hook');
          await client.close();
        },
      ],
    });

    const inFlight = fetch(`${running.url}/slow`);
    await started.opened;
    const closed = running.close();
    await expect(fetch(`${running.url}/health`)).rejects.toThrow();

    events.push('released');
    released.open();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ done: true });
    await closed;
    expect(events).toEqual(['released', 'hook', 'mongo closed']);
    expect(running.server.listening).toBe(false);
  });

  it('drains first: /ready answers 503 while requests are still served, then it stops', async () => {
    const running = await run({
      app: slowApp(() => {}, Promise.resolve()),
      // Long enough for the three requests below on a machine busy with every other suite.
      drainMs: 5_000,
    });
    expect((await fetch(`${running.url}/ready`)).status).toBe(200);
    const closed = running.close();
    const ready = await fetch(`${running.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      code: 'service_unavailable',
      message: 'test is shutting down',
    });
    expect((await fetch(`${running.url}/slow`)).status).toBe(200);
    await closed;
    await expect(fetch(`${running.url}/health`)).rejects.toThrow();
  });

  it('cuts a request still running when the grace period ends', async () => {
    const started = gate();
    const running = await run({
      app: slowApp(started.open, new Promise(() => {})),
      gracePeriodMs: 100,
    });
    const inFlight = fetch(`${running.url}/slow`);
    await started.opened;
    await running.close();
    await expect(inFlight).rejects.toThrow();
  });

  it('runs every shutdown hook and rejects when one failed', async () => {
    const ran: string[] = [];
    const running = await run({
      app: slowApp(() => {}, Promise.resolve()),
      onShutdown: [
        () => Promise.reject(new Error('flush failed')),
        () => void ran.push('second'),
      ],
    });
    await expect(running.close()).rejects.toThrow('shutdown hooks failed');
    expect(ran).toEqual(['second']);
  });

  it('shuts down once however often close() is called', async () => {
    let hookRuns = 0;
    const running = await run({
      app: slowApp(() => {}, Promise.resolve()),
      onShutdown: [() => void hookRuns++],
    });
    await Promise.all([running.close(), running.close()]);
    await running.close();
    expect(hookRuns).toBe(1);
  });

  it('on SIGTERM finishes the in-flight request, closes Mongo and exits 0', async () => {
    await using mongo = await startMongo();
    const fixture = fileURLToPath(
      new URL('./test-support/sigterm-fixture.ts', import.meta.url),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, FIXTURE_MONGODB_URI: mongo.uri },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', resolve),
    );
    try {
      const events: Record<string, unknown>[] = [];
      const waiters: (() => void)[] = [];
      createInterface({ input: child.stdout }).on('line', (line) => {
        events.push(JSON.parse(line) as Record<string, unknown>);
        waiters.splice(0).forEach((wake) => {
          wake();
        });
      });
      const nextEvent = async (name: string) => {
        let found = events.find((event) => event.event === name);
        while (!found) {
          await new Promise<void>((resolve) => waiters.push(resolve));
          found = events.find((event) => event.event === name);
        }
        return found;
      };

      const { url } = (await nextEvent('listening')) as { url: string };
      const inFlight = fetch(`${url}/slow`);
      await nextEvent('slow started');
      child.kill('SIGTERM');

      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ done: true });
      expect(await exited).toBe(0);
      expect(events.map((event) => event.event)).toContain('mongo closed');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
