import { registerHooks } from 'node:module';
import { serveHttp } from '@petstore/testkit';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// Every file this process loads from here on, as ES module or CommonJS: the SDK is ESM, which
// require.cache does not list.
const loaded: string[] = [];
const hooks = registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
// Imported once loads are recorded, so that a telemetry.js that loaded the SDK itself would show.
const { inSpan, startTracing } = await import('./telemetry.js');

/** Whether the tracing SDK was loaded into this process. */
const sdkLoaded = () =>
  loaded.some((url) => url.includes('/@opentelemetry/sdk-trace/'));

afterEach(() => {
  vi.unstubAllEnvs();
});

afterAll(() => {
  hooks.deregister();
});

describe('startTracing', () => {
  it('records nothing and loads nothing without an endpoint', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '');
    expect(await startTracing('test')).toBeUndefined();
    await inSpan('work', {}, () => Promise.resolve());
    expect(sdkLoaded()).toBe(false);
  });

  it('sends spans as OTLP protobuf by default', async () => {
    const received: { path?: string; type?: string; bytes: number }[] = [];
    await using collector = await serveHttp((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      req.on('end', () => {
        received.push({
          path: req.url,
          type: req.headers['content-type'],
          bytes,
        });
        res.writeHead(200).end();
      });
    });
    // The exporter reads its endpoint from the process's environment, as in a service.
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', collector.url);
    const stop = await startTracing('test');
    expect(sdkLoaded()).toBe(true);
    await inSpan('work', {}, () => Promise.resolve());
    await stop?.();
    expect(received).toEqual([
      {
        path: '/v1/traces',
        type: 'application/x-protobuf',
        bytes: expect.any(Number) as number,
      },
    ]);
    expect(received[0]?.bytes).toBeGreaterThan(0);
  });
});
