// Test support: a gateway of the test's own on its own database, and what its tests share.
import {
  connectMongo,
  createLogger,
  type Env,
  type Logger,
} from '@petstore/service-kit';
import {
  serveHttp,
  testInternalToken,
  type MongoServer,
  type RunningService,
} from '@petstore/testkit';
import { test } from '@petstore/testkit/vitest';
import { MongoClient, type Db } from 'mongodb';
import { Accounts } from '../accounts/accounts.js';
import { buildGateway, createApp, type AppDeps } from '../app.js';
import { loadGatewayConfig, type Config } from '../config.js';
import { ensureIndexes } from '../database/indexes.js';
import { closeUpstreams } from '../proxy/upstreams.js';
import { startGateway } from '../start.js';

export const ADMIN_API_KEY = 'psk_AdminKeyForTests0123456789abcdefABCDEF';

export interface CapturedLogs {
  logger: Logger;
  text(): string;
}

export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const logger = createLogger({
    name: 'gateway',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { logger, text: () => lines.join('') };
}

/** The gateway's configuration for a test: its own database, upstreams that refuse by default. */
export function testConfig(mongo: MongoServer, env: Env = {}): Config {
  return loadGatewayConfig({
    PORT: '0',
    MONGODB_URI: mongo.uri,
    MONGODB_DB: mongo.databaseName('gateway'),
    INTERNAL_TOKEN: testInternalToken,
    ADMIN_API_KEY,
    LOG_LEVEL: 'silent',
    // Nothing listens on port 9 (discard) on a test machine: connections are refused.
    PETS_URL: 'http://127.0.0.1:9',
    STORE_URL: 'http://127.0.0.1:9',
    // Tests sign up many accounts from one address; the rate limit tests lower this again.
    SIGNUP_RATE_LIMIT_BURST: '1000',
    ...env,
  });
}

export interface TestGateway extends AsyncDisposable {
  url: string;
  config: Config;
  /** The gateway's database, through a client of the test's own. */
  db: Db;
  logs: CapturedLogs;
  /** Stops the gateway (its database stays readable through `db` until disposal). */
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  /** Added to the test's configuration (names: services/gateway/README). */
  env?: Env;
  /** The whole configuration, in place of the test's one. */
  config?: Config;
  /**
   * Dependencies of the app to replace: the app alone is then served, built as `startGateway`
   * builds it but without its background work.
   */
  deps?: Partial<AppDeps>;
}

/** Starts the gateway as `startGateway` does, on the test's database; `await using` stops it. */
export async function startTestGateway(
  mongo: MongoServer,
  { env = {}, config = testConfig(mongo, env), deps }: TestGatewayOptions = {},
): Promise<TestGateway> {
  const logs = captureLogs();
  const client = await new MongoClient(mongo.uri).connect();
  const db = client.db(config.mongo.database);
  const gateway = deps
    ? await serveApp({
        client,
        db,
        config,
        logger: logs.logger,
        overrides: deps,
      })
    : await startGateway(config, {
        logger: logs.logger,
        signals: [],
        validateResponses: true,
      });
  let stopped: Promise<void> | undefined;
  const close = () => {
    stopped ??= gateway.close();
    return stopped;
  };
  return {
    url: gateway.url,
    config,
    db,
    logs,
    close,
    [Symbol.asyncDispose]: async () => {
      await close();
      await client.close();
    },
  };
}

async function serveApp({
  client,
  db,
  config,
  logger,
  overrides,
}: {
  client: MongoClient;
  db: Db;
  config: Config;
  logger: Logger;
  overrides: Partial<AppDeps>;
}): Promise<RunningService> {
  await new Accounts(db).ensureAdmin(config.adminApiKey);
  const { deps } = buildGateway(client, db, config, logger);
  const app = createApp({ ...deps, ...overrides, validateResponses: true });
  const served = await serveHttp(app.callback());
  return {
    url: served.url,
    close: async () => {
      await served.close();
      await closeUpstreams(deps.upstreams);
    },
  };
}

/**
 * vitest's `it` with `mongo`, `gateway` (a gateway of the test's own with the default config) and
 * `db` (a fresh gateway database, its indexes made).
 */
export const it = test.extend<{ gateway: TestGateway; db: Db }>({
  gateway: async ({ mongo }, use) => {
    await using gateway = await startTestGateway(mongo);
    await use(gateway);
  },
  db: async ({ mongo }, use) => {
    const client = await connectMongo(mongo.uri, { appName: 'gateway-test' });
    const db = client.db(mongo.databaseName('gateway'));
    await ensureIndexes(db);
    await use(db);
    await client.close();
  },
});

export interface SignedUp {
  accountId: string;
  apiKey: string;
}

let accounts = 0;

/** Signs up a new customer through the API. */
export async function signUp(
  baseUrl: string,
  email = `user${++accounts}@example.com`,
): Promise<SignedUp> {
  const res = await fetch(`${baseUrl}/v1/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (res.status !== 201)
    throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { id: string; apiKey: string };
  return { accountId: body.id, apiKey: body.apiKey };
}

export function bearer(apiKey: string): Record<string, string> {
  return { Authorization: `Bearer ${apiKey}` };
}
