import { startEmbeddedFerretdb } from './embedded-ferretdb.js';
import { useExternalMongo } from './external-mongo.js';
import { startMongoContainer } from './mongo-container.js';
import { startMongoJavaServer } from './mongo-java-server.js';
import type { EmbeddedDatabase, MongoServer } from './mongo-server.js';

/** `EMBEDDED_DATABASE`: which database to start as a process of our own; FerretDB unless told. */
export function embeddedDatabase(env: NodeJS.ProcessEnv = process.env): EmbeddedDatabase {
  const chosen = env.EMBEDDED_DATABASE || 'ferretdb';
  if (chosen !== 'ferretdb' && chosen !== 'mongo-java-server') {
    throw new Error(
      `[testkit] EMBEDDED_DATABASE must be ferretdb or mongo-java-server, not '${chosen}'`,
    );
  }
  return chosen;
}

/** Starts the embedded database of the given kind. */
export function startEmbedded(
  kind: EmbeddedDatabase,
  { dataDir, port }: { dataDir?: string; port?: number } = {},
): Promise<MongoServer> {
  return kind === 'ferretdb'
    ? startEmbeddedFerretdb({ dataDir, port })
    : startMongoJavaServer({ dataDir, port });
}

/**
 * A MongoDB of its own for a test file, chosen in this order: `MONGODB_URI` when set; a
 * container of the image `PETSTORE_TEST_MONGO_IMAGE` when set; otherwise the embedded database
 * `EMBEDDED_DATABASE` names (FerretDB by default). Containers are asked for by name, never
 * inferred from a Docker daemon that happens to answer, so the same command tests the same way
 * on every machine.
 */
export async function startMongo(env: NodeJS.ProcessEnv = process.env): Promise<MongoServer> {
  if (env.MONGODB_URI) return useExternalMongo(env.MONGODB_URI);
  if (env.PETSTORE_TEST_MONGO_IMAGE) return startMongoContainer(env.PETSTORE_TEST_MONGO_IMAGE);
  return startEmbedded(embeddedDatabase(env));
}
