import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient, MongoServerError, type Document } from 'mongodb';

/** The name of the one-member replica set every database started here runs as. */
export const replicaSetName = 'petstore';

interface ReplicaSetConfig extends Document {
  version: number;
  members: (Document & { _id: number; host: string })[];
}

/** mongod's answer to a replica set command before the set was initiated. */
const NOT_YET_INITIALIZED = 94;

/**
 * Makes the mongod that `directUri` reaches (`directConnection=true`) the one member of the
 * replica set `petstore`, known to it as `host`, and resolves once it is a primary that accepts
 * writes. The first time it initiates the set. On data kept from a run where the member had
 * another address (another port), it names the member again with a forced reconfiguration, as
 * MongoDB's manual does to restore a replica set elsewhere.
 */
export async function initiateReplicaSet(
  directUri: string,
  host: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const client = new MongoClient(directUri, {
    serverSelectionTimeoutMS: timeoutMs,
  });
  try {
    const admin = client.db('admin');
    const config = await admin.command({ replSetGetConfig: 1 }).then(
      (answer) => answer.config as ReplicaSetConfig,
      (error: unknown) => {
        if (
          error instanceof MongoServerError &&
          error.code === NOT_YET_INITIALIZED
        )
          return;
        throw error;
      },
    );
    if (!config) {
      await admin.command({
        replSetInitiate: { _id: replicaSetName, members: [{ _id: 0, host }] },
      });
    } else {
      const [member] = config.members;
      if (config.members.length !== 1 || member?.host !== host) {
        const members = [{ ...member, _id: member?._id ?? 0, host }];
        await admin.command({
          replSetReconfig: { ...config, version: config.version + 1, members },
          force: true,
        });
      }
    }
    // A transaction its dead client left locks its documents this long, not MongoDB's 60 s
    // (docs/configuration.md).
    await admin.command({
      setParameter: 1,
      transactionLifetimeLimitSeconds: 6,
    });
    for (;;) {
      const hello = await admin.command({ hello: 1 });
      if (hello.isWritablePrimary) return;
      if (Date.now() > deadline) {
        throw new Error(
          `[testkit] the replica set at ${host} had no writable primary within ${timeoutMs} ms`,
        );
      }
      await sleep(50);
    }
  } finally {
    await client.close();
  }
}
