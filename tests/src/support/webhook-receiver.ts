import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a receiver got: its headers and its body exactly as sent. */
export interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers the next request: a status, or never (the request hangs). */
export type Answer = number | 'hang';

/**
 * A webhook receiver on a loopback port: records every POST and answers the queued answers in
 * turn, then 200. It can go down (its port refuses connections) and come back on the same port.
 */
export class WebhookReceiver implements AsyncDisposable {
  readonly receipts: Receipt[] = [];
  readonly #answers: Answer[] = [];
  readonly #hanging = new Set<() => void>();
  #server: Server | undefined;
  #port = 0;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.up();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}/hooks`;
  }

  /** Answers these, in turn, before going back to 200. */
  answer(...answers: Answer[]): void {
    this.#answers.push(...answers);
  }

  /** The receipts whose body is the event `type`, parsed. */
  events(
    type?: string,
  ): { id: string; type: string; data: Record<string, unknown> }[] {
    return this.receipts
      .map(
        (receipt) =>
          JSON.parse(receipt.body) as {
            id: string;
            type: string;
            data: Record<string, unknown>;
          },
      )
      .filter((event) => type === undefined || event.type === type);
  }

  async up(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.receipts.push({
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const answer = this.#answers.shift() ?? 200;
        if (answer === 'hang') {
          this.#hanging.add(() => res.destroy());
          return;
        }
        res.writeHead(answer, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    server.listen(this.#port, '127.0.0.1');
    await once(server, 'listening');
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Stops listening and drops every connection: deliveries meet a refused connection. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    for (const release of this.#hanging) release();
    this.#hanging.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.down();
  }
}
