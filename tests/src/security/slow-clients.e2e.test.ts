import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { stockedPet } from '../support/catalogue.js';
import { testStackForFile } from '../support/stack-for-file.js';

const api = testStackForFile();

/** More connections than the gateway's pool to a service holds. */
const HANGING = 130;
/** The gateway's default `ACCOUNT_MAX_IN_FLIGHT`. */
const IN_FLIGHT = 64;

/** Opens a connection that sends an order's headers and the first byte of its 100-byte body. */
async function hangingOrder(url: string, apiKey: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.setEncoding('utf8');
  socket.write(
    'POST /v1/store/orders HTTP/1.1\r\nHost: petstore\r\nContent-Type: application/json\r\n' +
      `Authorization: Bearer ${apiKey}\r\nContent-Length: 100\r\n\r\n{`,
  );
  return socket;
}

/** Everything the server sends on `socket` until it closes it. */
async function answerOf(socket: Socket): Promise<string> {
  let answer = '';
  socket.on('data', (chunk: string) => {
    answer += chunk;
  });
  await once(socket, 'close');
  return answer;
}

describe('clients that send their bodies slowly', () => {
  it('hold only their own share, and are answered 408 once 10 s have passed', async () => {
    const { petId } = await stockedPet(api.admin);
    const greedy = await api.signUp();
    const other = await api.signUp();
    const sockets = await Promise.all(
      Array.from({ length: HANGING }, () =>
        hangingOrder(api.url, greedy.apiKey),
      ),
    );
    const answers = sockets.map(answerOf);

    // Before, these waited for a connection to the store held by a hanging body, and got 504.
    const reads = [];
    for (let read = 0; read < 20; read++) {
      reads.push(
        await callHttp(api.url, 'GET', `/v1/store/inventory/${petId}`, {
          apiKey: other.apiKey,
        }),
      );
    }
    expect(reads.map(({ status }) => status)).toEqual(
      Array.from({ length: 20 }, () => 200),
    );

    // The account's first 64 wait for their bodies; the others are refused at once.
    const codes = (await Promise.all(answers)).map((answer) => {
      const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
      const body = answer.slice(head.length + 4, answer.indexOf('}') + 1);
      const error = JSON.parse(body) as { code: string; status: number };
      expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${error.status} `));
      if (error.code === 'rate_limited')
        expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
      return error.code;
    });
    expect(codes.filter((code) => code === 'request_timeout')).toHaveLength(
      IN_FLIGHT,
    );
    expect(codes.filter((code) => code === 'rate_limited')).toHaveLength(
      HANGING - IN_FLIGHT,
    );
    // Each request gave its place back.
    const after = await callHttp(
      api.url,
      'GET',
      `/v1/store/inventory/${petId}`,
      {
        apiKey: greedy.apiKey,
      },
    );
    expect(after.status).toBe(200);
  });
});
