import { connectMongo, createLogger } from '@petstore/service-kit';
import {
  accounts,
  serveHttp,
  serviceTestEnv,
  startServiceUnderTest,
  testInternalToken,
  type HttpAnswer,
  type MongoServer,
  type RunningService,
  type ServiceUnderTest,
} from '@petstore/testkit';
import { test } from '@petstore/testkit/vitest';
import type { Db, MongoClient } from 'mongodb';
import { createApp } from '../app.js';
import { loadPetsConfig, type PetsConfig } from '../config.js';
import { ensureIndexes } from '../indexes.js';
import { petsDeps, startPets } from '../start.js';

export type Answer = HttpAnswer;

/** The config a test service runs with, on a database of its own. */
export function testConfig(mongo: MongoServer, env: Record<string, string> = {}): PetsConfig {
  return loadPetsConfig(
    serviceTestEnv(mongo, { database: 'pets', internalToken: testInternalToken }, env),
  );
}

/** The service under test, called as the gateway would for an admin unless a call says otherwise. */
export interface ServedPets extends ServiceUnderTest {
  /** The service's database, for reading what was stored. */
  db: Db;
}

const logger = createLogger({ name: 'pets', level: 'silent' });

async function served(
  config: PetsConfig,
  run: (client: MongoClient, db: Db, port: number) => Promise<RunningService>,
): Promise<ServedPets> {
  const client = await connectMongo(config.mongo.uri, { appName: 'pets-test' });
  const db = client.db(config.mongo.database);
  const pets = await startServiceUnderTest((port) => run(client, db, port), {
    as: accounts.admin,
  });
  return Object.assign(pets, {
    db,
    [Symbol.asyncDispose]: async () => {
      await pets.stop();
      await client.close();
    },
  });
}

/** The pets app on a fresh database of `mongo`, with responses checked against the contract. */
export function servePets(
  mongo: MongoServer,
  { now, env }: { now?: () => Date; env?: Record<string, string> } = {},
): Promise<ServedPets> {
  const config = testConfig(mongo, env);
  return served(config, async (client, db, port) => {
    await ensureIndexes(db);
    const deps = petsDeps(client, db, config, logger);
    const app = createApp({ ...deps, now, validateResponses: true });
    return serveHttp(app.callback(), port);
  });
}

/** The pets service started as in production (its event relay included); `env` adds to its own. */
export function startTestPets(
  mongo: MongoServer,
  env: Record<string, string>,
): Promise<ServedPets> {
  const config = testConfig(mongo, env);
  return served(config, (_client, _db, port) => startPets(config, { signals: [], port, logger }));
}

/** `it` with `mongo` (the file's database server) and `pets`, on a fresh database per test. */
export const it = test.extend<{ pets: ServedPets }>({
  pets: async ({ mongo }, use) => {
    await using pets = await servePets(mongo);
    await use(pets);
  },
});
