import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback server that accepts every connection and never answers a byte. */
export class HangingServer implements AsyncDisposable {
  readonly #sockets = new Set<Socket>();
  readonly #server = createServer((socket) => {
    this.#sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.#sockets.delete(socket));
  });

  static async start(): Promise<HangingServer> {
    const hanging = new HangingServer();
    hanging.#server.listen(0, '127.0.0.1');
    await once(hanging.#server, 'listening');
    return hanging;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      this.#server.close(() => {
        resolve();
      }),
    );
  }
}
