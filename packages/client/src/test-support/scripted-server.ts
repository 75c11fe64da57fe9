import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answeredPreflight } from './cors.js';

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

/** At least one reply: the last answers every request after it. */
export type Replies = [Reply, ...Reply[]];

export interface ScriptedServer {
  baseUrl: string;
  received: Received[];
  close(): Promise<void>;
}

function replyTo(index: number, replies: Replies): Reply {
  return replies[Math.min(index, replies.length - 1)] ?? replies[0];
}

/**
 * A server on a free port that answers request `n` (from 0) with `replies[n]`. CORS preflights are
 * answered apart: the client did not make them, so they are neither recorded nor counted.
 */
export async function startScriptedServer(
  replies: Replies,
): Promise<ScriptedServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = replyTo(received.length, replies);
      const exposed =
        answer === 'hang' ? [] : Object.keys(answer.headers ?? {});
      if (answeredPreflight(req, res, exposed)) return;
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
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
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
