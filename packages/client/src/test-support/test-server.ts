import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server received it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the server answers: a JSON or text body, or `'hang'` to never answer. */
export type Reply =
  | {
      status: number;
      headers?: Record<string, string>;
      body?: unknown;
      text?: string;
    }
  | 'hang';

export interface TestServer extends AsyncDisposable {
  baseUrl: string;
  received: Received[];
}

/** A server on a free port that answers request `n` (from 0) with `reply(request, n)`. */
export async function startServer(
  reply: (request: Received, index: number) => Reply,
): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const answer = reply(request, received.length - 1);
      if (answer === 'hang') return;
      const json = answer.body !== undefined;
      res.writeHead(answer.status, {
        ...(json ? { 'content-type': 'application/json' } : {}),
        ...answer.headers,
      });
      res.end(json ? JSON.stringify(answer.body) : (answer.text ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A base URL where nothing listens: a server's port, after it closed. */
export async function refusingBaseUrl(): Promise<string> {
  const server = await startServer(() => ({ status: 200 }));
  await server[Symbol.asyncDispose]();
  return server.baseUrl;
}

export function errorBody(status: number, code: string, message = code) {
  return { status, body: { code, message, status, requestId: `req-${code}` } };
}
