import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface HangingReceiver {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Requests received so far, none of them answered. */
  requests(): number;
  /** Requests that were hanging at some moment between `from` and `to` (epoch ms). */
  hangingBetween(from: number, to: number): number;
  /** Destroys the connections still open and stops listening. */
  stop(): Promise<void>;
}

/**
 * A webhook receiver that accepts every request and never answers: each delivery to it waits
 * for the sender's own timeout.
 */
export async function startHangingReceiver(): Promise<HangingReceiver> {
  let connections = 0;
  const received: { at: number; closedAt?: number }[] = [];
  // Node would answer 408 after `requestTimeout` (5 min): this receiver must never answer.
  const server = createServer({ requestTimeout: 0 }, (req) => {
    const request: { at: number; closedAt?: number } = { at: Date.now() };
    received.push(request);
    req.socket.once('close', () => (request.closedAt = Date.now()));
    // Read the body so the sender is left waiting for an answer, not stuck writing.
    req.resume();
  });
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections++;
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    connections: () => connections,
    requests: () => received.length,
    hangingBetween: (from, to) =>
      received.filter(({ at, closedAt }) => at <= to && (closedAt ?? Infinity) >= from).length,
    stop: () =>
      (stopped ??= (async () => {
        // A socket's 'close' comes after the server's: wait for both, so every request has ended.
        const closed = [...open].map((socket) => once(socket, 'close'));
        const stoppedListening = new Promise((resolve) => server.close(resolve));
        for (const socket of open) socket.destroy();
        await Promise.all([...closed, stoppedListening]);
      })()),
  };
}
