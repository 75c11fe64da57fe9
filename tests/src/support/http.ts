export interface RequestOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as it is (with the headers given), for bodies that are not JSON. */
  body?: string;
  headers?: Record<string, string>;
}

/** A raw request to the gateway, for tests about the bytes on the wire. */
export function send(
  baseUrl: string,
  method: string,
  path: string,
  { apiKey, json, body, headers = {} }: RequestOptions = {},
): Promise<Response> {
  const sent: Record<string, string> = {};
  if (apiKey !== undefined) sent.authorization = `Bearer ${apiKey}`;
  if (json !== undefined) sent['content-type'] = 'application/json';
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...sent, ...headers },
    body: json === undefined ? body : JSON.stringify(json),
  });
}
