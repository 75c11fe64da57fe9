import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';

/**
 * Pings through the official driver until the server answers; fails after `timeoutMs`,
 * or at once when `signal` aborts (e.g. the server process exited).
 */
export async function waitForMongo(
  uri: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // A server just started: its port first, every 50 ms, where the driver would wait 500 ms
  // between tries.
  const address = singleHost(uri);
  while (address && Date.now() < deadline && !(await accepts(address))) {
    signal?.throwIfAborted();
    await sleep(50);
  }
  for (;;) {
    signal?.throwIfAborted();
    const client = new MongoClient(uri, {
      serverSelectionTimeoutMS: 500,
      connectTimeoutMS: 500,
    });
    try {
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(
          `[testkit] no MongoDB answered at ${uri} within ${timeoutMs} ms`,
          {
            cause: error,
          },
        );
      }
      await sleep(100);
    } finally {
      await client.close();
    }
  }
}

/** The host and port of a `mongodb://` URI naming one server. */
function singleHost(uri: string): { host: string; port: number } | undefined {
  if (
    !uri.startsWith('mongodb://') ||
    uri.slice(10).split('/')[0]?.includes(',')
  )
    return;
  const { hostname, port } = new URL(uri);
  return {
    host: hostname.replace(/^\[|\]$/g, ''),
    port: Number(port || 27017),
  };
}

function accepts(address: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}
