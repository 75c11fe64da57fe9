import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { callHttp } from '@petstore/testkit';
import { stockedPet } from '../support/catalogue.js';
import { testStackForFile } from '../support/stack-for-file.js';

const api = testStackForFile();

/** More connections than the gateway's pool to a service holds. */
const HANGING = 130;

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
  socket.on('data', (chunk: string) => (answer += chunk));
  await once(socket, 'close');
  return answer;
}

describe('clients that send their bodies slowly', () => {
  it('hold only their own connections, and are answered 408 once 10 s have passed', async () => {
    const { petId } = await stockedPet(api.admin);
    const greedy = await api.signUp();
    const other = await api.signUp();
    const sockets = await Promise.all(
      Array.from({ length: HANGING }, () => hangingOrder(api.url, greedy.apiKey)),
    );
    const answers = sockets.map(answerOf);

    // Before, these waited for a connection to the store held by a hanging body, and got 504.
    const reads = [];
    for (let read = 0; read < 20; read++) {
      reads.push(
        await callHttp(api.url, 'GET', `/v1/store/inventory/${petId}`, { apiKey: other.apiKey }),
      );
    }
    expect(reads.map(({ status }) => status)).toEqual(Array.from({ length: 20 }, () => 200));

    for (const answer of await Promise.all(answers)) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
      expect(body).toMatchObject({ code: 'request_timeout', status: 408 });
    }
  });
});
