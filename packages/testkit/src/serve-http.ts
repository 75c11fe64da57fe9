import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedHttp extends AsyncDisposable {
  /** e.g. `http://127.0.0.1:43117`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A Node request listener or a Koa app's `callback()`, which returns a promise. */
export type HttpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
) => unknown;

/**
 * Serves a request listener (e.g. a Koa app's `callback()`) on a free port of 127.0.0.1 over
 * real sockets, until closed; `await using` closes it, open connections included.
 */
export async function serveHttp(
  handler: HttpHandler,
  port = 0,
): Promise<ServedHttp> {
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    close,
    [Symbol.asyncDispose]: close,
  };
}
