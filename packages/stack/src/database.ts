import { join } from 'node:path';
import {
  freePort,
  startEmbedded,
  type EmbeddedDatabase,
  type MongoServer,
} from '@petstore/testkit';

/** The stack's database: `MONGODB_URI` as it is, or an embedded one keeping its data. */
export interface StackDatabase {
  readonly uri: string;
  /** Whether several processes of a service may share it (not the embedded FerretDB). */
  readonly sharedByReplicas: boolean;
  /** Embedded only: stops it (the data stays) and starts it again at the same address. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function openDatabase(
  dataDir: string,
  { mongoUri, embedded }: { mongoUri?: string; embedded: EmbeddedDatabase },
): Promise<StackDatabase> {
  if (mongoUri) {
    const nothing = () => Promise.resolve();
    return { uri: mongoUri, sharedByReplicas: true, stop: nothing, start: nothing };
  }
  const port = await freePort();
  const start = () => startEmbedded(embedded, { dataDir: join(dataDir, embedded), port });
  let server: MongoServer | undefined = await start();
  return {
    uri: server.uri,
    sharedByReplicas: embedded !== 'ferretdb',
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async start() {
      server ??= await start();
    },
  };
}
