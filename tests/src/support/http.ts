export interface RequestOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as it is (with the headers given), for bodies that are not JSON. */
  body?: string;
  headers?: Record<string, string>;
  /** Ends the request, e.g. `AbortSignal.timeout(ms)` where a hang must fail the test. */
  signal?: AbortSignal;
}

/** A raw request to the gateway, for tests about the bytes on the wire. */
export function send(
  baseUrl: string,
  method: string,
  path: string,
  { apiKey, json, body, headers = {}, signal }: RequestOptions = {},
): Promise<Response> {
  const sent: Record<string, string> = {};
  if (apiKey !== undefined) sent.authorization = `Bearer ${apiKey}`;
  if (json !== undefined) sent['content-type'] = 'application/json';
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...sent, ...headers },
    body: json === undefined ? body : JSON.stringify(json),
    signal,
  });
}

/** An answer as a test reads it: a typed client's result, or a `fetch` response once read. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Reads a `fetch` response: its body parsed as JSON when it is JSON, else as text. */
export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  if (/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    body = JSON.parse(text) as unknown;
  }
  return { status: response.status, headers: response.headers, body };
}

/** `send`, with the answer read whole. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options?: RequestOptions,
): Promise<Answer> {
  return answerOf(await send(baseUrl, method, path, options));
}
