import { gatewayHeaders, type Who } from './gateway-identity.js';

export interface HttpCallOptions {
  /**
   * A value sent as JSON; a string or bytes are sent as they are. Either goes as
   * `application/json` unless `headers` name another content type.
   */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Sent with the headers the gateway adds for `as` (with the tests' internal token). */
  as?: Who;
  /** Ends the request, e.g. `AbortSignal.timeout(ms)` where a hang must fail the test. */
  signal?: AbortSignal;
}

export interface HttpAnswer<Body = unknown> {
  status: number;
  headers: Headers;
  /** The body parsed when it is JSON, else its text; undefined when there is none. */
  body: Body;
}

/** Sends one request to `url` + `path` and reads the whole answer. */
export async function callHttp<Body = unknown>(
  url: string,
  method: string,
  path: string,
  { body, headers = {}, apiKey, as, signal }: HttpCallOptions = {},
): Promise<HttpAnswer<Body>> {
  const sent = new Headers(as === undefined ? {} : gatewayHeaders(as));
  if (apiKey !== undefined) sent.set('authorization', `Bearer ${apiKey}`);
  if (body !== undefined) sent.set('content-type', 'application/json');
  for (const [name, value] of Object.entries(headers)) sent.set(name, value);
  const response = await fetch(`${url}${path}`, {
    method,
    headers: sent,
    body: sendsAsItIs(body) ? body : JSON.stringify(body),
    signal,
  });
  return readAnswer<Body>(response);
}

function sendsAsItIs(body: unknown): body is string | Uint8Array | undefined {
  return (
    body === undefined || typeof body === 'string' || body instanceof Uint8Array
  );
}

/** Reads a `fetch` response whole: its body parsed when it is JSON, else as text. */
export async function readAnswer<Body = unknown>(
  response: Response,
): Promise<HttpAnswer<Body>> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: parsed(response, text) as Body,
  };
}

/** A JSON body parsed; any other body, or JSON that does not parse, as its text. */
function parsed(response: Response, text: string): unknown {
  if (text === '') return undefined;
  if (
    !/^application\/(.+\+)?json\b/.test(
      response.headers.get('content-type') ?? '',
    )
  )
    return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
