export interface HttpCallOptions {
  /** A value sent as JSON, or a string sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpAnswer<Body = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when there is none. */
  body: Body;
}

/** Sends one request to `url` + `path` and reads the whole answer, its JSON body parsed. */
export async function callHttp<Body = unknown>(
  url: string,
  method: string,
  path: string,
  { body, headers = {} }: HttpCallOptions = {},
): Promise<HttpAnswer<Body>> {
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json', ...headers };
  }
  const response = await fetch(`${url}${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text === '' ? undefined : JSON.parse(text)) as Body,
  };
}
