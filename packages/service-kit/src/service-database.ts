import type { Db, MongoClient } from 'mongodb';
import type { Logger } from './logger.js';
import { connectMongo, isFerretdb } from './mongo.js';
import { takeSingleProcessLease } from './single-process-lease.js';

export interface ServiceDatabase {
  client: MongoClient;
  db: Db;
  /**
   * True on a database that cannot isolate one process's updates from another's (FerretDB):
   * this process holds it alone, so what it keeps in memory (rate limits) is the whole truth.
   */
  singleProcess: boolean;
  /** Gives the database up (the lease too) and closes the connection. */
  close(): Promise<void>;
}

export interface OpenServiceDatabaseOptions {
  uri: string;
  database: string;
  /** The service's name: the driver's `appName`, and in the message when another holds it. */
  service: string;
  logger: Logger;
  /** Called when another process took a single-process database over; by default exits. */
  onLeaseLost?: () => void;
}

/**
 * Connects a service to its database. On FerretDB, which serves one process per service, it
 * first takes the database's single-process lease, and fails with a clear message when another
 * process of the service holds it.
 */
export async function openServiceDatabase({
  uri,
  database,
  service,
  logger,
  onLeaseLost = () => process.exit(1),
}: OpenServiceDatabaseOptions): Promise<ServiceDatabase> {
  const client = await connectMongo(uri, { appName: service });
  try {
    const db = client.db(database);
    const singleProcess = await isFerretdb(client);
    const lease = singleProcess
      ? await takeSingleProcessLease(db, { service, logger, onLost: onLeaseLost })
      : undefined;
    return {
      client,
      db,
      singleProcess,
      async close() {
        await lease?.release().catch((error: unknown) => {
          logger.warn({ err: error }, 'could not release the database lease; it goes stale');
        });
        await client.close();
      },
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
