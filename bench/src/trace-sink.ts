import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/HTTP endpoint that reads and drops what it is sent: a collector costing next to nothing. */
export async function startTraceSink(): Promise<{
  url: string;
  received(): number;
  stop(): Promise<void>;
}> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
