import { startEmbeddedFerretdb } from './embedded-ferretdb.js';
import { useExternalMongo } from './external-mongo.js';
import { dockerAnswers, startMongoContainer } from './mongo-container.js';
import type { MongoServer } from './mongo-server.js';

/**
 * A MongoDB of its own for a test file, chosen in this order: `MONGODB_URI` when set; a
 * container (`PETSTORE_TEST_MONGO_IMAGE`, default `mongo:7`) when a Docker daemon answers;
 * otherwise the embedded FerretDB.
 */
export async function startMongo(env: NodeJS.ProcessEnv = process.env): Promise<MongoServer> {
  if (env.MONGODB_URI) return useExternalMongo(env.MONGODB_URI);
  if (await dockerAnswers()) return startMongoContainer(env.PETSTORE_TEST_MONGO_IMAGE ?? 'mongo:7');
  return startEmbeddedFerretdb();
}
