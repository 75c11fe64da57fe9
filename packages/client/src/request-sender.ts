import { ApiPromise, type WithResponse } from './api-promise.js';
import {
  PetstoreConnectionError,
  PetstoreTimeoutError,
  errorFromResponse,
  unexpectedBody,
} from './errors.js';
import { loggableHeaders, type Logger } from './logger.js';
import { isRetryableStatus, mayRetry, retryDelay, sleep } from './retries.js';
import type { Empty, WithRequestId } from './types.js';
import { userAgent } from './user-agent.js';

/** Headers to send, as a plain object or a fetch `Headers`. */
export type HeadersLike = Record<string, string> | Headers;

export interface ClientOptions {
  /** The API key, sent as `Authorization: Bearer <apiKey>`; only `accounts.create` needs none. */
  apiKey?: string;
  /** Where the gateway answers. Default `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** Milliseconds each attempt may take, the body included. Default 30 000. */
  timeout?: number;
  /** How many times a failed request that is safe to repeat is sent again. Default 2. */
  maxRetries?: number;
  /** The `fetch` to send requests with. Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Sent with every request, over the client's own (`Authorization` included). */
  headers?: HeadersLike;
  /** Told of every attempt, retry and response at debug level (`console` will do); never the key. */
  logger?: Logger;
}

/** The last argument of every method: settings for this call only. */
export interface RequestOptions {
  /** Milliseconds each attempt may take; overrides the client's `timeout`. */
  timeout?: number;
  /** Overrides the client's `maxRetries`. */
  maxRetries?: number;
  /**
   * Sent as `Idempotency-Key`, the same on every retry. Every POST sends one, generated when
   * none is given, so that a retry never does the work twice.
   */
  idempotencyKey?: string;
  /** Cancels the call, retries and waits included; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Sent with this call, over the client's `headers` and its own. */
  headers?: HeadersLike;
}

export type QueryValue =
  string | number | boolean | readonly (string | number | boolean)[];

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue | undefined> | undefined;
  body?: unknown;
}

/** A success, read and parsed. */
export interface Answer {
  response: Response;
  body: unknown;
  requestId: string;
}

/** What tests replace to run retries without waiting. */
export interface SenderHooks {
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

function queryString(query: RequestSpec['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined) params.append(name, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } }).cause?.message;
  return typeof cause === 'string'
    ? cause
    : String((error as Error).message ?? error);
}

/**
 * The one place requests are sent: authentication, headers, the user agent, per-attempt timeouts,
 * idempotency keys, retries with backoff, logging, and turning every failure into one of the
 * SDK's errors.
 */
export class RequestSender {
  private readonly baseUrl: string;

  constructor(
    private readonly options: ClientOptions = {},
    private readonly hooks: SenderHooks = {},
  ) {
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:8080').replace(
      /\/+$/,
      '',
    );
  }

  /** Sends the request, retrying what may be retried; resolves to a 2xx answer. */
  async send(spec: RequestSpec, options: RequestOptions = {}): Promise<Answer> {
    const headers = this.headers(spec, options);
    const idempotencyKey = headers.get('idempotency-key') ?? undefined;
    const maxRetries = options.maxRetries ?? this.options.maxRetries ?? 2;
    const retryable = mayRetry(spec.method, idempotencyKey);
    const url = `${this.baseUrl}${spec.path}${queryString(spec.query)}`;
    const init: RequestInit = { method: spec.method, headers };
    if (spec.body !== undefined) init.body = JSON.stringify(spec.body);

    for (let retry = 0; ; retry += 1) {
      const last = !retryable || retry >= maxRetries;
      const attempt = retry + 1;
      this.log(`${describe(spec)} attempt ${attempt}`, {
        method: spec.method,
        url,
        attempt,
        headers: loggableHeaders(headers),
      });
      const started = Date.now();
      let response: Response;
      let text: string;
      try {
        ({ response, text } = await this.attempt(url, init, spec, options));
      } catch (error) {
        if (!(error instanceof PetstoreConnectionError)) throw error;
        this.log(`${describe(spec)} got no answer`, {
          attempt,
          error: error.message,
        });
        if (last) throw error;
        await this.wait(spec, retry, undefined, options.signal, error.message);
        continue;
      }
      const ms = Date.now() - started;
      const requestId = response.headers.get('x-request-id') ?? undefined;
      this.log(`${describe(spec)} answered ${response.status}`, {
        status: response.status,
        attempt,
        ms,
        requestId,
      });
      if (!last && isRetryableStatus(response.status)) {
        const reason = `answered ${response.status}`;
        await this.wait(
          spec,
          retry,
          response.headers.get('retry-after'),
          options.signal,
          reason,
        );
        continue;
      }
      return this.answer(spec, response, text);
    }
  }

  /** Sends the request and gives its body with the request id attached. */
  request<T>(
    spec: RequestSpec,
    options?: RequestOptions,
  ): ApiPromise<WithRequestId<T>> {
    return new ApiPromise(
      this.send(spec, options).then(({ response, body, requestId }) => {
        if (body === null || typeof body !== 'object') {
          throw unexpectedBody(describe(spec), response, requestId);
        }
        Object.defineProperty(body, 'requestId', {
          value: requestId,
          enumerable: false,
        });
        return { data: body as WithRequestId<T>, response };
      }),
    );
  }

  /** Sends a request answered by 204 No Content. */
  requestEmpty(spec: RequestSpec, options?: RequestOptions): ApiPromise<Empty> {
    return new ApiPromise(
      this.send(spec, options).then(
        ({ response, requestId }): WithResponse<Empty> => ({
          data: { requestId },
          response,
        }),
      ),
    );
  }

  /**
   * The SDK's headers, then the client's, then the call's: a later one replaces an earlier one of
   * the same name. A POST without an `Idempotency-Key` gets a generated one.
   */
  private headers(spec: RequestSpec, options: RequestOptions): Headers {
    const headers = new Headers({ Accept: 'application/json' });
    const agent = userAgent();
    if (agent) headers.set('User-Agent', agent);
    if (this.options.apiKey)
      headers.set('Authorization', `Bearer ${this.options.apiKey}`);
    if (spec.body !== undefined)
      headers.set('Content-Type', 'application/json');
    for (const given of [this.options.headers, options.headers]) {
      new Headers(given).forEach((value, name) => {
        headers.set(name, value);
      });
    }
    if (options.idempotencyKey !== undefined) {
      headers.set('Idempotency-Key', options.idempotencyKey);
    } else if (spec.method === 'POST' && !headers.has('Idempotency-Key')) {
      headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
    }
    return headers;
  }

  /** One try: the response and its whole body within the timeout, or a connection error. */
  private async attempt(
    url: string,
    init: RequestInit,
    spec: RequestSpec,
    options: RequestOptions,
  ) {
    const { signal } = options;
    signal?.throwIfAborted();
    const timeout = options.timeout ?? this.options.timeout ?? 30_000;
    const controller = new AbortController();
    // setTimeout fires at once for more than 2^31 - 1 ms; such a timeout means none.
    const timer =
      timeout < 2 ** 31
        ? setTimeout(() => {
            controller.abort();
          }, timeout)
        : undefined;
    const forward = () => {
      controller.abort();
    };
    signal?.addEventListener('abort', forward, { once: true });
    const fetch = this.options.fetch ?? globalThis.fetch;
    try {
      const response = await fetch(url, { ...init, signal: controller.signal });
      return { response, text: await response.text() };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.aborted) {
        throw new PetstoreTimeoutError(
          `${describe(spec)} timed out after ${timeout} ms`,
          {
            cause: error,
          },
        );
      }
      throw new PetstoreConnectionError(
        `${describe(spec)} failed: ${reasonOf(error)}`,
        {
          cause: error,
        },
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  private wait(
    spec: RequestSpec,
    retry: number,
    retryAfter: string | null | undefined,
    signal: AbortSignal | undefined,
    reason: string,
  ) {
    const ms = retryDelay(retry, retryAfter, this.hooks.random);
    this.log(`${describe(spec)} retrying in ${ms} ms`, {
      retry: retry + 1,
      delayMs: ms,
      reason,
    });
    return (this.hooks.sleep ?? sleep)(ms, signal);
  }

  private log(message: string, details: Record<string, unknown>): void {
    this.options.logger?.debug(`[petstore-client] ${message}`, details);
  }

  private answer(spec: RequestSpec, response: Response, text: string): Answer {
    const body = parseJson(text);
    const requestId =
      response.headers.get('x-request-id') ??
      (body as { requestId?: string } | undefined)?.requestId ??
      '';
    const { status } = response;
    if (status >= 200 && status < 300) return { response, body, requestId };
    const type = response.headers.get('content-type') ?? 'no content type';
    throw errorFromResponse(
      response,
      body,
      requestId,
      `${describe(spec)} answered ${status} (${type})`,
    );
  }
}

export function describe(spec: RequestSpec): string {
  return `${spec.method} ${spec.path}`;
}
