import {
  MongoClient,
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

export interface ConnectMongoOptions {
  /** Shows in the server's logs and `currentOp`, e.g. the service name. */
  appName: string;
  /** How long to look for a server or open a socket before failing; keeps an outage fast. */
  timeoutMs?: number;
}

/** A connected client that fails within `timeoutMs` rather than hanging when the database is down. */
export async function connectMongo(
  uri: string,
  { appName, timeoutMs = 2_000 }: ConnectMongoOptions,
): Promise<MongoClient> {
  const client = new MongoClient(uri, {
    appName,
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
  });
  await client.connect();
  return client;
}

/** True when the error means the database cannot be reached, as opposed to a failed query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoClientClosedError
  );
}
