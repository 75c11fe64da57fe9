import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface SlowBodies {
  /** What the connections were answered so far, and how many wait: `66 answered 429, …`. */
  summary(): string;
  /** Closes every connection, answered or not. */
  stop(): void;
}

/**
 * `count` connections to the gateway at `url`, each sending an order's headers with `apiKey` and
 * `Content-Length: 100`, then only `{`. The gateway answers those beyond the account's requests
 * in flight 429 at once and the others 408 once 10 s have passed, and closes each connection
 * 10 s after its first byte: a connection it answered and closed is opened again, so that
 * `count` stay open however long the load lasts.
 */
export async function openSlowBodies(
  url: string,
  apiKey: string,
  count: number,
): Promise<SlowBodies> {
  const { hostname, port } = new URL(url);
  const answers = new Map<string, number>();
  const opened = new Set<Socket>();
  const unanswered = new Set<Socket>();
  let stopped = false;

  const open = async () => {
    const socket = connect(Number(port), hostname);
    opened.add(socket);
    unanswered.add(socket);
    socket.setEncoding('utf8');
    socket.once('data', (chunk: string) => {
      unanswered.delete(socket);
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(chunk)?.[1] ?? 'other';
      answers.set(status, (answers.get(status) ?? 0) + 1);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      opened.delete(socket);
      // One that was never answered failed: opening it again could only fail again.
      const answered = !unanswered.delete(socket);
      if (answered && !stopped) open().catch(() => {});
    });
    await once(socket, 'connect');
    socket.write(
      'POST /v2/store/orders HTTP/1.1\r\nHost: petstore\r\n' +
        'Content-Type: application/json\r\n' +
        `Authorization: Bearer ${apiKey}\r\nContent-Length: 100\r\n\r\n{`,
    );
  };

  await Promise.all(Array.from({ length: count }, open));
  return {
    summary: () =>
      [
        ...[...answers].map(([status, times]) => `${times} answered ${status}`),
        `${unanswered.size} unanswered at the end`,
      ].join(', '),
    stop: () => {
      stopped = true;
      for (const socket of opened) socket.destroy();
    },
  };
}
