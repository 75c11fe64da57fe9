import { connect } from 'node:net';
import type { HttpAnswer } from '@petstore/testkit';

/** What came back on a raw connection, parsed. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  /** The body as text (chunked transfer coding removed). */
  body: string;
}

export interface RawOptions {
  /** Half-closes the connection after writing, as a client that sent all it will send. */
  endAfterWriting?: boolean;
  /** How long to wait for the server to close the connection. */
  timeoutMs?: number;
}

/**
 * Writes `bytes` as they are on a new connection to `baseUrl` and reads until the server closes
 * it, for requests `fetch` cannot send: raw paths (`..`, `%2F`, `//`), bare CR or LF in a header,
 * oversized headers, conflicting lengths. Send `Connection: close`, or the server keeps the
 * connection open until the timeout. Fails when the connection closes without an answer.
 */
export function rawRequest(
  baseUrl: string,
  bytes: string | Buffer,
  { endAfterWriting = false, timeoutMs = 10_000 }: RawOptions = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no end of the answer within ${timeoutMs} ms`)),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A server may reset a connection it refuses; what it wrote before still counts.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer) resolve(answer);
      else reject(new Error('the connection closed without an answer'));
    });
    socket.write(bytes);
    if (endAfterWriting) socket.end();
  });
}

/** `rawRequest`, with the body parsed when the answer says it is JSON. */
export async function rawJsonRequest(
  baseUrl: string,
  bytes: string | Buffer,
  options?: RawOptions,
): Promise<HttpAnswer> {
  const answer = await rawRequest(baseUrl, bytes, options);
  const json = /^application\/json\b/.test(
    answer.headers.get('content-type') ?? '',
  );
  return {
    ...answer,
    body: json ? (JSON.parse(answer.body) as unknown) : answer.body,
  };
}

function parseAnswer(data: Buffer): RawAnswer | undefined {
  const text = data.toString('utf-8');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  if (status === undefined)
    throw new Error(`not an HTTP answer: ${statusLine}`);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const rest = text.slice(end + 4);
  const body =
    headers.get('transfer-encoding') === 'chunked' ? unchunk(rest) : rest;
  return { status: Number(status), headers, body };
}

function unchunk(text: string): string {
  let body = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd === -1) return body;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return body;
    // Sizes count bytes; the text is decoded, so measure the chunk in bytes.
    const bytes = Buffer.from(text.slice(lineEnd + 2), 'utf-8').subarray(
      0,
      size,
    );
    const chunk = bytes.toString('utf-8');
    body += chunk;
    at = lineEnd + 2 + chunk.length + 2;
  }
}
