import { createServer, type ServerOptions } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { apiVersion } from '@petstore/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { answerClientErrors } from './run-service.js';
import {
  captureLogs,
  type CapturedLogs,
} from './test-support/captured-logs.js';

let logs: CapturedLogs;
const servers: ReturnType<typeof createServer>[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(options: ServerOptions = {}): Promise<number> {
  logs = captureLogs();
  const server = createServer(options, (_req, res) => res.end('{}'));
  answerClientErrors(server, logs.logger);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Writes `bytes` and reads until the server closes: status, headers and body. */
function exchange(port: number, bytes: string) {
  return new Promise<{
    status: number;
    headers: Record<string, string>;
    body: unknown;
  }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: JSON.parse(body),
      });
    });
    socket.write(bytes);
  });
}

describe('answerClientErrors', () => {
  it.each([
    [
      'a lowercase method',
      'get / HTTP/1.1\r\nHost: x\r\n\r\n',
      400,
      'malformed_request',
    ],
    [
      'Transfer-Encoding with Content-Length',
      'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
      400,
      'malformed_request',
    ],
    [
      'headers over 16 KiB',
      `GET /?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      431,
      'headers_too_large',
    ],
  ])(
    'answers %s with %i %s in the Error shape, logged at warn',
    async (_what, bytes, status, code) => {
      const port = await serve();
      const answer = await exchange(port, bytes);
      expect(answer).toMatchObject({
        status,
        headers: { 'api-version': apiVersion, connection: 'close' },
        body: { code, status, message: expect.any(String) as string },
      });
      expect((answer.body as { requestId: string }).requestId).toBe(
        answer.headers['x-request-id'],
      );
      expect(logs.lines()).toMatchObject([
        { level: 40, parserError: expect.stringMatching(/^HPE_/) as string },
      ]);
    },
  );

  it('answers a request that does not arrive in time with 408 request_timeout', async () => {
    // Node looks for late requests every `connectionsCheckingInterval`.
    const port = await serve({
      requestTimeout: 200,
      headersTimeout: 200,
      connectionsCheckingInterval: 50,
    });
    const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatchObject({
      status: 408,
      body: { code: 'request_timeout', status: 408 },
    });
  });
});
