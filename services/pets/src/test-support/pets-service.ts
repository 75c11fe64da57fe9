import { connectMongo, createLogger } from '@petstore/service-kit';
import {
  accounts,
  serveHttp,
  serviceTestEnv,
  ServiceUnderTest,
  testInternalToken,
  type HttpAnswer,
  type MongoServer,
  type RunningService,
} from '@petstore/testkit';
import { test } from '@petstore/testkit/vitest';
import type { Db } from 'mongodb';
import { createApp } from '../app.js';
import { loadPetsConfig, type PetsConfig } from '../config.js';
import { ensureIndexes } from '../indexes.js';
import { petsDeps, startPets } from '../start.js';

export type Answer = HttpAnswer;

/** The config a test service runs with, on a database of its own. */
export function testConfig(
  mongo: MongoServer,
  env: Record<string, string> = {},
): PetsConfig {
  return loadPetsConfig(
    serviceTestEnv(
      mongo,
      { database: 'pets', internalToken: testInternalToken },
      env,
    ),
  );
}

/** The service under test, called as the gateway would for an admin unless a call says otherwise. */
export interface ServedPets extends ServiceUnderTest {
  /** The service's database, for reading what was stored. */
  db: Db;
}

const logger = createLogger({ name: 'pets', level: 'silent' });

export interface TestPetsOptions {
  /** Added to the test's configuration. */
  env?: Record<string, string>;
  /**
   * Started as in production, its event relay included; otherwise the app alone, with its
   * responses checked against the contract.
   */
  eventRelay?: boolean;
  /** The app's clock, when it is served alone. */
  now?: () => Date;
}

/** The pets service on a fresh database of `mongo`; `await using` stops it. */
export async function startTestPets(
  mongo: MongoServer,
  { env, eventRelay = false, now }: TestPetsOptions = {},
): Promise<ServedPets> {
  const config = testConfig(mongo, env);
  const client = await connectMongo(config.mongo.uri, { appName: 'pets-test' });
  const db = client.db(config.mongo.database);
  const run = async (port: number): Promise<RunningService> => {
    if (eventRelay) return startPets(config, { signals: [], port, logger });
    await ensureIndexes(db);
    const deps = petsDeps(client, db, config, logger);
    const app = createApp({ ...deps, now, validateResponses: true });
    return serveHttp(app.callback(), port);
  };
  const pets = await new ServiceUnderTest(run, { as: accounts.admin }).start();
  return Object.assign(pets, {
    db,
    [Symbol.asyncDispose]: async () => {
      await pets.stop();
      await client.close();
    },
  });
}

/** `it` with `mongo` (the file's database server) and `pets`, on a fresh database per test. */
export const it = test.extend<{ pets: ServedPets }>({
  pets: async ({ mongo }, use) => {
    await using pets = await startTestPets(mongo);
    await use(pets);
  },
});
