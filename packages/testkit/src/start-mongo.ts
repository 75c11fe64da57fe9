import { startEmbeddedFerretdb } from './embedded-ferretdb.js';
import { useExternalMongo } from './external-mongo.js';
import { dockerAnswers, startMongoContainer } from './mongo-container.js';
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
 * container (`PETSTORE_TEST_MONGO_IMAGE`, default `mongo:7`) when a Docker daemon answers;
 * otherwise the embedded database `EMBEDDED_DATABASE` names (FerretDB by default).
 */
export async function startMongo(env: NodeJS.ProcessEnv = process.env): Promise<MongoServer> {
  if (env.MONGODB_URI) return useExternalMongo(env.MONGODB_URI);
  if (await dockerAnswers()) return startMongoContainer(env.PETSTORE_TEST_MONGO_IMAGE ?? 'mongo:7');
  return startEmbedded(embeddedDatabase(env));
}
