import { randomUUID } from 'node:crypto';
import {
  PetstoreConnectionError,
  PetstoreTimeoutError,
  errorFromResponse,
  unexpectedBody,
} from './errors.js';
import { isRetryableStatus, mayRetry, retryDelay, sleep } from './retries.js';
import type { Empty, WithRequestId } from './types.js';
import { userAgent } from './user-agent.js';

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
}

/** The last argument of every method: settings for this call only. */
export interface RequestOptions {
  /** Milliseconds each attempt may take; overrides the client's `timeout`. */
  timeout?: number;
  /** Overrides the client's `maxRetries`. */
  maxRetries?: number;
  /**
   * Sent as `Idempotency-Key`, the same on every retry. A POST is only retried with one;
   * `orders.create` and `messages.send` generate one when none is given.
   */
  idempotencyKey?: string;
  /** Cancels the call, retries and waits included; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[];

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue | undefined> | undefined;
  body?: unknown;
}

/** A success, read and parsed. */
export interface Answer {
  status: number;
  headers: Headers;
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
  return typeof cause === 'string' ? cause : String((error as Error).message ?? error);
}

/**
 * The one place requests are sent: authentication, the user agent, per-attempt timeouts,
 * idempotency keys, retries with backoff, and turning every failure into one of the SDK's errors.
 */
export class RequestSender {
  private readonly baseUrl: string;

  constructor(
    private readonly options: ClientOptions = {},
    private readonly hooks: SenderHooks = {},
  ) {
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  }

  /** Sends the request, retrying what may be retried; resolves to a 2xx answer. */
  async send(spec: RequestSpec, options: RequestOptions = {}): Promise<Answer> {
    // Every POST honours a key: one is generated when the caller gives none, so it may be retried.
    const idempotencyKey =
      options.idempotencyKey ?? (spec.method === 'POST' ? randomUUID() : undefined);
    const maxRetries = options.maxRetries ?? this.options.maxRetries ?? 2;
    const retryable = mayRetry(spec.method, idempotencyKey);
    const url = `${this.baseUrl}${spec.path}${queryString(spec.query)}`;
    const init: RequestInit = { method: spec.method, headers: this.headers(spec, idempotencyKey) };
    if (spec.body !== undefined) init.body = JSON.stringify(spec.body);

    for (let retry = 0; ; retry += 1) {
      const last = !retryable || retry >= maxRetries;
      let response: Response;
      let text: string;
      try {
        ({ response, text } = await this.attempt(url, init, spec, options));
      } catch (error) {
        if (last || !(error instanceof PetstoreConnectionError)) throw error;
        await this.wait(retry, undefined, options.signal);
        continue;
      }
      if (!last && isRetryableStatus(response.status)) {
        await this.wait(retry, response.headers.get('retry-after'), options.signal);
        continue;
      }
      return this.answer(spec, response, text);
    }
  }

  /** Sends the request and gives its body with the request id attached. */
  async request<T>(spec: RequestSpec, options?: RequestOptions): Promise<WithRequestId<T>> {
    const { status, body, requestId } = await this.send(spec, options);
    if (body === null || typeof body !== 'object') {
      throw unexpectedBody(describe(spec), status, requestId);
    }
    Object.defineProperty(body, 'requestId', { value: requestId, enumerable: false });
    return body as WithRequestId<T>;
  }

  /** Sends a request answered by 204 No Content. */
  async requestEmpty(spec: RequestSpec, options?: RequestOptions): Promise<Empty> {
    const { requestId } = await this.send(spec, options);
    return { requestId };
  }

  private headers(spec: RequestSpec, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': userAgent(),
    };
    if (this.options.apiKey) headers.Authorization = `Bearer ${this.options.apiKey}`;
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
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
    const timer = timeout < 2 ** 31 ? setTimeout(() => controller.abort(), timeout) : undefined;
    const forward = () => controller.abort();
    signal?.addEventListener('abort', forward, { once: true });
    const fetch = this.options.fetch ?? globalThis.fetch;
    try {
      const response = await fetch(url, { ...init, signal: controller.signal });
      return { response, text: await response.text() };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.aborted) {
        throw new PetstoreTimeoutError(`${describe(spec)} timed out after ${timeout} ms`, {
          cause: error,
        });
      }
      throw new PetstoreConnectionError(`${describe(spec)} failed: ${reasonOf(error)}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  private wait(retry: number, retryAfter: string | null | undefined, signal?: AbortSignal) {
    const ms = retryDelay(retry, retryAfter, this.hooks.random);
    return (this.hooks.sleep ?? sleep)(ms, signal);
  }

  private answer(spec: RequestSpec, response: Response, text: string): Answer {
    const { status, headers } = response;
    const body = parseJson(text);
    const requestId =
      headers.get('x-request-id') ?? (body as { requestId?: string } | undefined)?.requestId ?? '';
    if (status >= 200 && status < 300) return { status, headers, body, requestId };
    const type = headers.get('content-type') ?? 'no content type';
    throw errorFromResponse(
      status,
      body,
      requestId,
      `${describe(spec)} answered ${status} (${type})`,
    );
  }
}

export function describe(spec: RequestSpec): string {
  return `${spec.method} ${spec.path}`;
}
