import { connect } from 'node:net';

/** What came back on the socket: the status line's code, the header lines, the rest. */
export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/**
 * Writes `request` to the gateway byte for byte (for requests `fetch` refuses to send, e.g. a
 * bare CR in a header value) and reads until the server closes the connection; the request
 * should say `Connection: close`.
 */
export function sendRaw(baseUrl: string, request: string, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request, 'latin1'));
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('no answer in time')));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const end = data.indexOf('\r\n\r\n');
      const head = end === -1 ? data : data.slice(0, end);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body: end === -1 ? '' : data.slice(end + 4) });
    });
  });
}
