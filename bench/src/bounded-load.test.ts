import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addCounts, percentile, sendBounded } from './bounded-load.js';

let server: Server | undefined;

afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

/** A server on 127.0.0.1 answering each request with `status` after `delayMs`. */
async function serving(status: number, delayMs = 0): Promise<{ origin: string; paths: string[] }> {
  const paths: string[] = [];
  server = createServer((req, res) => {
    paths.push(req.url ?? '');
    setTimeout(() => res.writeHead(status).end('{}'), delayMs);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, paths };
}

const get = (index: number) => ({ path: `/${index}`, method: 'GET' as const, headers: {} });

describe('sendBounded', () => {
  it('sends exactly the count, each index once, from several clients', async () => {
    const { origin, paths } = await serving(200);
    const run = await sendBounded(origin, 4, { count: 50, seconds: 30 }, get);
    expect(run.ok).toBe(50);
    expect(run.failed).toEqual({});
    expect(run.latenciesMs).toHaveLength(50);
    expect(paths.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `/${i}`).sort());
  });

  it('stops sending at its time bound, whatever is left of the count', async () => {
    const { origin } = await serving(200, 50);
    const run = await sendBounded(origin, 2, { count: 1_000, seconds: 0.3 }, get);
    expect(run.ok).toBeGreaterThan(0);
    expect(run.ok).toBeLessThan(30);
    expect(run.seconds).toBeLessThan(1);
  });

  it('counts answers other than 2xx by status, and requests that got none', async () => {
    const { origin } = await serving(503);
    const run = await sendBounded(origin, 1, { count: 3, seconds: 30 }, get);
    expect(run).toMatchObject({ ok: 0, failed: { '503': 3 } });
    const closed = await sendBounded('http://127.0.0.1:1', 1, { count: 2, seconds: 30 }, get);
    expect(closed).toMatchObject({ ok: 0, failed: { error: 2 } });
  });
});

describe('percentile', () => {
  it('gives the latency below which that share of the requests were answered', () => {
    const latencies = [5, 1, 4, 2, 3];
    expect(percentile(latencies, 0.5)).toBe(3);
    expect(percentile(latencies, 0.99)).toBe(5);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('addCounts', () => {
  it('adds the counts by status into the first and returns it', () => {
    const into = { '503': 1 };
    expect(addCounts(into, { '503': 2, error: 1 })).toBe(into);
    expect(into).toEqual({ '503': 3, error: 1 });
  });
});
