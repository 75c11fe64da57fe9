import { inject } from 'vitest';
import type { Received, Reply } from './scripted-server.js';

export type { Received, Reply };

export interface TestServer extends AsyncDisposable {
  baseUrl: string;
  /** The requests received so far, in order. */
  received(): Promise<Received[]>;
}

async function control(path: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(`${inject('testServerControl')}${path}`, init);
  if (!response.ok)
    throw new Error(`[test-server] ${path}: ${await response.text()}`);
  return response;
}

/**
 * A server on a free port that answers request `n` (from 0) with the `n`th reply, and every
 * request after the last reply with the last. It runs in Node, beside the suite
 * (global-setup.ts), and answers a browser's CORS preflights.
 */
export async function startServer(
  first: Reply,
  ...more: Reply[]
): Promise<TestServer> {
  const started = await control('/servers', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([first, ...more]),
  });
  const { id, baseUrl } = (await started.json()) as {
    id: string;
    baseUrl: string;
  };
  return {
    baseUrl,
    async received() {
      const response = await control(`/servers/${id}/received`);
      return (await response.json()) as Received[];
    },
    async [Symbol.asyncDispose]() {
      await control(`/servers/${id}`, { method: 'DELETE' });
    },
  };
}

/** A base URL where nothing listens: a server's port, after it closed. */
export async function refusingBaseUrl(): Promise<string> {
  const server = await startServer({ status: 200 });
  await server[Symbol.asyncDispose]();
  return server.baseUrl;
}

export function errorBody(status: number, code: string, message = code) {
  return { status, body: { code, message, status, requestId: `req-${code}` } };
}
