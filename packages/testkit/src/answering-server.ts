import { DatabaseNames } from './database-names.js';
import type { MongoServer } from './mongo-server.js';
import { initiateReplicaSet } from './replica-set.js';
import { waitForMongo } from './wait-for-mongo.js';

/** Where a mongod just started answers. */
export interface MongodAddresses {
  /** For the clients given the server. */
  uri: string;
  /** To this mongod alone (`directConnection=true`), for setting it up. */
  directUri: string;
  /** `host:port` as the replica set names its member: where the mongod reaches itself. */
  member: string;
}

/**
 * The mongod just started, once it answers and is the primary of its one-member replica set;
 * stopped again when it never is.
 */
export async function answeringServer(
  { uri, directUri, member }: MongodAddresses,
  kind: MongoServer['kind'],
  stop: () => Promise<void>,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
): Promise<MongoServer> {
  try {
    await waitForMongo(directUri, timeoutMs, signal);
    await initiateReplicaSet(directUri, member, timeoutMs);
  } catch (error) {
    await stop();
    throw signal?.aborted ? signal.reason : error;
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
