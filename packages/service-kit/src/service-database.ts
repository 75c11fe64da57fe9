import type { Db, MongoClient } from 'mongodb';
import { connectMongo } from './mongo.js';

export interface ServiceDatabase {
  client: MongoClient;
  db: Db;
  /** Closes the connection. */
  close(): Promise<void>;
}

export interface OpenServiceDatabaseOptions {
  uri: string;
  database: string;
  /** The service's name: the driver's `appName`. */
  service: string;
}

/** Connects a service to its database. */
export async function openServiceDatabase({
  uri,
  database,
  service,
}: OpenServiceDatabaseOptions): Promise<ServiceDatabase> {
  const client = await connectMongo(uri, { appName: service });
  return { client, db: client.db(database), close: () => client.close() };
}
