import { connectMongo, createLogger } from '@petstore/service-kit';
import { callHttp, serveHttp, serviceTestEnv } from '@petstore/testkit';
import type { HttpAnswer, HttpCallOptions, MongoServer } from '@petstore/testkit';
import type { Db } from 'mongodb';
import { test } from '@petstore/testkit/vitest';
import { createApp } from '../app.js';
import { loadPetsConfig, type PetsConfig } from '../config.js';
import { petEvents } from '../events.js';
import { ensureIndexes } from '../indexes.js';
import { startPets } from '../start.js';

export const internalToken = 'test-internal-token-0123456789abcdef';

/** What the gateway sends with a request of an account of each role, and without an account. */
export const as = {
  admin: {
    'x-internal-token': internalToken,
    'x-account-id': 'acct_admin1',
    'x-account-role': 'admin',
  },
  customer: {
    'x-internal-token': internalToken,
    'x-account-id': 'acct_jane1',
    'x-account-role': 'customer',
  },
  /** Another service (the store): the internal token and no account. */
  service: { 'x-internal-token': internalToken },
  nobody: {},
} as const;

export type Who = keyof typeof as;

export interface CallOptions extends HttpCallOptions {
  as?: Who;
}

export type Answer = HttpAnswer;

/** The config a test service runs with, on a database of its own. */
export function testConfig(mongo: MongoServer, env: Record<string, string> = {}): PetsConfig {
  return loadPetsConfig(serviceTestEnv(mongo, { database: 'pets', internalToken }, env));
}

export interface ServedPets extends AsyncDisposable {
  url: string;
  /** The service's database, for reading what was stored. */
  db: Db;
  /** Calls the service over HTTP, as the gateway would for `as` (admin by default). */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
}

/**
 * The pets app on a fresh database of `mongo`, served on a free port, with responses checked
 * against the contract.
 */
export async function servePets(
  mongo: MongoServer,
  { now, env }: { now?: () => Date; env?: Record<string, string> } = {},
): Promise<ServedPets> {
  const config = testConfig(mongo, env);
  const client = await connectMongo(config.mongo.uri, { appName: 'pets-test' });
  const db = client.db(config.mongo.database);
  await ensureIndexes(db);
  const logger = createLogger({ name: 'pets', level: 'silent' });
  const served = await serveHttp(
    createApp({
      db,
      config,
      logger,
      events: petEvents(db, config),
      now,
      validateResponses: true,
    }).callback(),
  );
  return {
    url: served.url,
    db,
    call: (method, path, options) => call(served.url, method, path, options),
    [Symbol.asyncDispose]: async () => {
      await served.close();
      await client.close();
    },
  };
}

/**
 * The pets service started as in production (its event relay included) on a fresh database of
 * `mongo`, on a free port; `env` adds to its environment (e.g. `GATEWAY_URL`).
 */
export async function startTestPets(
  mongo: MongoServer,
  env: Record<string, string>,
): Promise<ServedPets> {
  const config = testConfig(mongo, env);
  const running = await startPets(config, {
    signals: [],
    port: 0,
    logger: createLogger({ name: 'pets', level: 'silent' }),
  });
  const client = await connectMongo(config.mongo.uri, { appName: 'pets-test' });
  return {
    url: running.url,
    db: client.db(config.mongo.database),
    call: (method, path, options) => call(running.url, method, path, options),
    [Symbol.asyncDispose]: async () => {
      await running.close();
      await client.close();
    },
  };
}

/** Calls the service over HTTP as the gateway would for `as` (admin by default). */
export function call(
  url: string,
  method: string,
  path: string,
  { as: who = 'admin', headers, ...options }: CallOptions = {},
): Promise<Answer> {
  return callHttp(url, method, path, { ...options, headers: { ...as[who], ...headers } });
}

/**
 * `it` with `mongo`, the test file's database server (started for the first test that takes it),
 * and `pets`, the service on a fresh database of it for one test.
 */
export const it = test.extend<{ pets: ServedPets }>({
  pets: async ({ mongo }, use) => {
    await using pets = await servePets(mongo);
    await use(pets);
  },
});
