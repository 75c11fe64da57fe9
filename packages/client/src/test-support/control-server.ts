import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answeredPreflight } from './cors.js';
import {
  startScriptedServer,
  type Replies,
  type ScriptedServer,
} from './scripted-server.js';

interface Answer {
  status: number;
  body?: unknown;
}

export interface ControlServer {
  url: string;
  close(): Promise<void>;
}

async function read(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts and stops scripted servers for tests in any runtime, a browser's included:
 * `POST /servers` with the replies starts one and answers `{ id, baseUrl }`,
 * `GET /servers/:id/received` gives the requests it received, `DELETE /servers/:id` stops it.
 */
export async function startControlServer(): Promise<ControlServer> {
  const servers = new Map<string, ScriptedServer>();
  let started = 0;

  async function answer(req: IncomingMessage): Promise<Answer> {
    if (req.method === 'POST' && req.url === '/servers') {
      const replies = JSON.parse(await read(req)) as Replies;
      const server = await startScriptedServer(replies);
      started += 1;
      const id = String(started);
      servers.set(id, server);
      return { status: 201, body: { id, baseUrl: server.baseUrl } };
    }
    const [, id = '', part] =
      /^\/servers\/(\d+)(\/received)?$/.exec(req.url ?? '') ?? [];
    const server = servers.get(id);
    if (server && req.method === 'GET' && part === '/received')
      return { status: 200, body: server.received };
    if (server && req.method === 'DELETE' && part === undefined) {
      servers.delete(id);
      await server.close();
      return { status: 204 };
    }
    return { status: 404, body: `no ${req.method} ${req.url}` };
  }

  const control = createServer((req, res) => {
    if (answeredPreflight(req, res)) return;
    answer(req).then(
      ({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const { port } = control.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await Promise.all([...servers.values()].map((server) => server.close()));
      control.closeAllConnections();
      await new Promise((resolve) => control.close(resolve));
    },
  };
}
