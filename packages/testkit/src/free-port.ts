import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Ports are chosen below Linux's ephemeral range (32768–60999): a listener on port 0 or an
 * outgoing connection never takes one between its choice and its use.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 32_767;

/** How long a port chosen stays claimed: long enough for what listens on it to start. */
const CLAIM_MS = 120_000;

/** A TCP port on 127.0.0.1, free, and chosen by no other process for the next two minutes. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 1_000; tries++) {
    const port = randomInt(FIRST_PORT, LAST_PORT + 1);
    if ((await claim(port)) && (await canListen(port))) return port;
  }
  throw new Error(`[testkit] no free port in ${FIRST_PORT}–${LAST_PORT}`);
}

/**
 * Claims `port` for `CLAIM_MS` against every process choosing ports here, so that stacks started
 * at once by test files in parallel never share one: by listening on an abstract Unix socket named
 * after it, which Linux frees when the process ends, however it ends, and which leaves no file.
 * Elsewhere the random choice alone keeps ports apart.
 */
function claim(port: number): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(true);
  return new Promise((resolve) => {
    const claim = createServer();
    claim.unref();
    claim.once('error', () => {
      resolve(false);
    });
    claim.listen(`\0petstore-port-${port}`, () => {
      setTimeout(() => claim.close(), CLAIM_MS).unref();
      resolve(true);
    });
  });
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () =>
      server.close(() => {
        resolve(true);
      }),
    );
  });
}
