import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  /** When each order's `order.created` arrived (epoch ms), by order id. */
  arrivals: Map<number, number>;
  /** Resolves once the events of the orders `ids` arrived, or after `ms`. */
  arrived(ids: number[], ms: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1: one answering 204 at once, or one that reads each delivery and
 * never answers, so that every delivery to it waits for the sender's timeout.
 */
export async function startReceiver({
  answers,
}: {
  answers: boolean;
}): Promise<Receiver> {
  const arrivals = new Map<number, number>();
  let waiting = () => {};
  // Node would answer 408 after `requestTimeout`: a hanging receiver must never answer.
  const server = createServer({ requestTimeout: 0 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!answers) return;
      res.writeHead(204).end();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        data: { id?: number };
      };
      if (event.type === 'order.created' && event.data.id !== undefined) {
        arrivals.set(event.data.id, arrivals.get(event.data.id) ?? Date.now());
        waiting();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    arrivals,
    arrived: (ids, ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        waiting = () => {
          if (!ids.every((id) => arrivals.has(id))) return;
          clearTimeout(timer);
          resolve();
        };
        waiting();
      }),
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
