import { answeringServer } from './answering-server.js';
import type { MongoServer } from './mongo-server.js';

const mongoPort = 27017;

/** The label on every container started here, so a CI run can remove any a crash left behind. */
export const containerLabel = 'petstore.testkit';

/**
 * A MongoDB-compatible container of `image`: `mongo:7`, or any image listening on 27017 that logs
 * like mongod ("Waiting for connections") or the embedded database ("listening on"). No helper image (Ryuk) is
 * needed: stop() removes the container, and CI removes any labelled one a crash left behind.
 */
export async function startMongoContainer(image: string): Promise<MongoServer> {
  const { GenericContainer, Wait } = await loadTestcontainers();
  const container = await new GenericContainer(image)
    .withExposedPorts(mongoPort)
    .withLabels({ [containerLabel]: 'true' })
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections|listening on/))
    .withStartupTimeout(60_000)
    .start();
  const uri = `mongodb://${container.getHost()}:${container.getMappedPort(mongoPort)}/`;
  const stop = async () => {
    await container.stop({ remove: true, removeVolumes: true });
  };
  return answeringServer(uri, 'container', stop, { timeoutMs: 30_000 });
}

function loadTestcontainers() {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  return import('testcontainers');
}
