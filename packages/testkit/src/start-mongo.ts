import { useExternalMongo } from './external-mongo.js';
import { startMongoContainer } from './mongo-container.js';
import { startMongod } from './mongod.js';
import type { MongoServer } from './mongo-server.js';

/**
 * A MongoDB of its own for a test file, chosen in this order: `MONGODB_URI` when set; a
 * container of the image `PETSTORE_TEST_MONGO_IMAGE` when set; otherwise the embedded mongod, with
 * its data in a temporary folder. Containers are asked for by name, never inferred from a Docker
 * daemon that happens to answer, so the same command tests the same way on every machine.
 */
export async function startMongo(
  env: NodeJS.ProcessEnv = process.env,
): Promise<MongoServer> {
  if (env.MONGODB_URI) return useExternalMongo(env.MONGODB_URI);
  if (env.PETSTORE_TEST_MONGO_IMAGE)
    return startMongoContainer(env.PETSTORE_TEST_MONGO_IMAGE);
  return startMongod();
}
