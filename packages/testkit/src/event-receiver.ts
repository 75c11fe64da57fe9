import { serveHttp, type ServedHttp } from './serve-http.js';

/** One `POST /internal/events` the receiver got, and what it answered. */
export interface ReceivedBatch<Event> {
  token: string | undefined;
  events: Event[];
  status: number;
}

/**
 * The gateway's `POST /internal/events` as a service sees it, over real HTTP: records each batch
 * and answers `status` (202 `{recorded}` unless told otherwise). Can stop and listen again on
 * its port, to play a gateway that is down. `Event`: what the contract says an event is.
 */
export class EventReceiver<Event> {
  readonly batches: ReceivedBatch<Event>[] = [];
  /** What the next requests are answered. */
  status = 202;
  #served: ServedHttp | undefined;
  #port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** The events it answered 202, in the order they came. */
  accepted(): Event[] {
    return this.batches
      .filter(({ status }) => status === 202)
      .flatMap(({ events }) => events);
  }

  async start(): Promise<this> {
    this.#served = await serveHttp(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.method !== 'POST' || req.url !== '/internal/events') {
        res.writeHead(404).end();
        return;
      }
      const { events } = JSON.parse(Buffer.concat(chunks).toString()) as {
        events: Event[];
      };
      const token = req.headers['x-internal-token'];
      const status = this.status;
      this.batches.push({
        token: typeof token === 'string' ? token : undefined,
        events,
        status,
      });
      const body =
        status === 202
          ? { recorded: events.length }
          : { code: 'internal', message: 'refused by the test', status };
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify(body));
    }, this.#port);
    this.#port = this.#served.port;
    return this;
  }

  async stop(): Promise<void> {
    await this.#served?.close();
    this.#served = undefined;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
