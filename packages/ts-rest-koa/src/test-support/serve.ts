import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface RunningServer extends AsyncDisposable {
  url: string;
}

/** Listens on a free port of 127.0.0.1; `await using` closes the server when the test ends. */
export async function serve(app: Koa): Promise<RunningServer> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, [Symbol.asyncDispose]: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
