import { createServer } from 'node:net';

/** Resolves when `port` on 127.0.0.1 can be listened on; else rejects with one clear line. */
export function ensurePortFree(port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `[stack] port ${port} is in use (${variable}): stop what listens there or set ${variable} to another port`
            : `[stack] cannot listen on port ${port} (${variable}): ${error.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}
