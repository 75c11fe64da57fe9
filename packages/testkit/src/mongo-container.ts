import { answeringServer } from './answering-server.js';
import type { MongoServer } from './mongo-server.js';
import { replicaSetName } from './replica-set.js';

const mongoPort = 27017;

/** The label on every container started here, so a CI run can remove any a crash left behind. */
export const containerLabel = 'petstore.testkit';

/**
 * A container of a mongod image — `mongo:8`, or the one scripts/build-mongod-image.sh builds —
 * run as the one member of the replica set `petstore`, which is initiated here through the driver
 * (no mongosh is needed in the image). Its clients connect straight to it
 * (`directConnection=true`): the member's own address, inside the container, is not the one
 * published here. No helper image (Ryuk) is needed: stop() removes the container, and CI removes
 * any labelled one a crash left behind.
 */
export async function startMongoContainer(image: string): Promise<MongoServer> {
  const { GenericContainer, Wait } = await loadTestcontainers();
  const container = await new GenericContainer(image)
    .withCommand([
      '--bind_ip_all',
      '--replSet',
      replicaSetName,
      '--wiredTigerCacheSizeGB',
      '0.25',
    ])
    .withExposedPorts(mongoPort)
    .withLabels({ [containerLabel]: 'true' })
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .withStartupTimeout(60_000)
    .start();
  const uri = `mongodb://${container.getHost()}:${container.getMappedPort(mongoPort)}/?directConnection=true`;
  const stop = async () => {
    await container.stop({ remove: true, removeVolumes: true });
  };
  const addresses = { uri, directUri: uri, member: `127.0.0.1:${mongoPort}` };
  return answeringServer(addresses, 'container', stop, { timeoutMs: 60_000 });
}

function loadTestcontainers() {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  return import('testcontainers');
}
