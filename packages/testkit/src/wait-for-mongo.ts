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
  for (;;) {
    signal?.throwIfAborted();
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
    try {
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`[testkit] no MongoDB answered at ${uri} within ${timeoutMs} ms`, {
          cause: error,
        });
      }
      await sleep(100);
    } finally {
      await client.close();
    }
  }
}
