import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TraceSink {
  /** The OTLP/HTTP endpoint, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it. */
  url: string;
  /** The export requests it was sent so far. */
  received(): number;
  stop(): Promise<void>;
}

/**
 * An OTLP/HTTP endpoint on 127.0.0.1 that reads what it is sent and drops it: a collector costing
 * next to nothing, so that a traced process pays for its spans and their export, not for a store.
 */
export async function startTraceSink(): Promise<TraceSink> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      // An empty answer is an empty ExportTraceServiceResponse: all accepted.
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received: () => received,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
