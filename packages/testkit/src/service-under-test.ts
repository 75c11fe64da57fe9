import {
  callHttp,
  type HttpAnswer,
  type HttpCallOptions,
} from './call-http.js';
import type { Who } from './gateway-identity.js';

/** A service as its start function leaves it running. */
export interface RunningService {
  url: string;
  close(): Promise<void>;
}

/**
 * A service a test starts, stops and starts again on the same port: `run` starts it on `port`
 * (0 the first time: a free one). Calls go as the gateway's for `as` unless a call says otherwise.
 * `await using service = await new ServiceUnderTest(run).start()` stops it at the end.
 */
export class ServiceUnderTest implements AsyncDisposable {
  #running: RunningService | undefined;
  #port = 0;

  constructor(
    private readonly run: (port: number) => Promise<RunningService>,
    private readonly options: { as?: Who } = {},
  ) {}

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Starts it, on the port it had before when it ran already. */
  async start(): Promise<this> {
    this.#running = await this.run(this.#port);
    this.#port = Number(new URL(this.#running.url).port);
    return this;
  }

  async stop(): Promise<void> {
    await this.#running?.close();
    this.#running = undefined;
  }

  call<Body = unknown>(
    method: string,
    path: string,
    options?: HttpCallOptions,
  ): Promise<HttpAnswer<Body>> {
    return callHttp<Body>(this.url, method, path, {
      as: this.options.as,
      ...options,
    });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}
