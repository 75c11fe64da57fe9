import { join } from 'node:path';
import { freePort, startEmbeddedFerretdb, type MongoServer } from '@petstore/testkit';

/** The stack's database: `MONGODB_URI` as it is, or the embedded FerretDB keeping its data. */
export interface StackDatabase {
  readonly uri: string;
  /** Embedded only: stops it (the data stays) and starts it again at the same address. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function openDatabase(dataDir: string, mongoUri?: string): Promise<StackDatabase> {
  if (mongoUri) {
    return { uri: mongoUri, stop: () => Promise.resolve(), start: () => Promise.resolve() };
  }
  const port = await freePort();
  const start = () => startEmbeddedFerretdb({ dataDir: join(dataDir, 'db'), port });
  let server: MongoServer | undefined = await start();
  return {
    uri: server.uri,
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async start() {
      server ??= await start();
    },
  };
}
