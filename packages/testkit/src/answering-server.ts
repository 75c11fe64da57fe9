import { DatabaseNames } from './database-names.js';
import type { MongoServer } from './mongo-server.js';
import { waitForMongo } from './wait-for-mongo.js';

/** The server just started at `uri`, once it answers; stopped again when it never does. */
export async function answeringServer(
  uri: string,
  kind: MongoServer['kind'],
  stop: () => Promise<void>,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
): Promise<MongoServer> {
  try {
    await waitForMongo(uri, timeoutMs, signal);
  } catch (error) {
    await stop();
    throw error;
  }
  const names = new DatabaseNames();
  return {
    uri,
    kind,
    databaseName: (prefix) => names.next(prefix),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
