import { createServer, type RequestListener } from 'node:http';

/**
 * Serves `handler` on a free port of 127.0.0.1 in this process (one of the bench's own servers,
 * started by `bench-process.ts`): prints `listening <port>` once it accepts connections, stops on
 * SIGTERM, then runs `onStop`.
 */
export function serve(handler: RequestListener, onStop: () => Promise<void> = async () => {}) {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('[bench] no TCP address');
    process.stdout.write(`listening ${address.port}\n`);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      server.closeAllConnections();
      server.close(() => void onStop().finally(() => process.exit(0)));
    });
  }
}
