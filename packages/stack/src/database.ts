import { join } from 'node:path';
import { freePort, startMongoJavaServer, type MongoServer } from '@petstore/testkit';

/** The stack's database: `MONGODB_URI` as it is, or the embedded one keeping its data. */
export interface StackDatabase {
  readonly uri: string;
  /** Embedded only: stops it (the data stays) and starts it again at the same address. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function openDatabase(
  dataDir: string,
  mongoUri: string | undefined,
): Promise<StackDatabase> {
  if (mongoUri) {
    const nothing = () => Promise.resolve();
    return { uri: mongoUri, stop: nothing, start: nothing };
  }
  const port = await freePort();
  const start = () => startMongoJavaServer({ dataDir: join(dataDir, 'mongo-java-server'), port });
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
