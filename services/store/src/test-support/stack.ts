// Test support: pets and the store in process on a test's database, and clients of both.
import type { Pet, PetStatus, RecordedEvent } from '@petstore/contract';
import { loadPetsConfig, startPets, type PetsConfig, type RunningPets } from '@petstore/pets';
import {
  connectMongo,
  createLogger,
  internalHeaders,
  type Caller,
  type Logger,
  type LogLevel,
} from '@petstore/service-kit';
import {
  callHttp,
  EventReceiver,
  fileFixture,
  serveHttp,
  serviceTestEnv,
  startMongo,
} from '@petstore/testkit';
import type { HttpAnswer, HttpCallOptions, MongoServer } from '@petstore/testkit';
import type { Db, MongoClient } from 'mongodb';
import { test, vi } from 'vitest';
import { createApp, type AppDeps } from '../app.js';
import { loadStoreConfig, type StoreConfig } from '../config.js';
import { startStore, type RunningStore } from '../start.js';

export const internalToken = 'store-tests-internal-token-0123456789';

/** An address where nothing answers (the discard port): events sent there stay pending. */
const nowhere = 'http://127.0.0.1:9';

/** The accounts tests act as, as the gateway vouches for them. */
export const accounts = {
  admin: { accountId: 'acct_admin1', role: 'admin' },
  jane: { accountId: 'acct_jane1', role: 'customer' },
  john: { accountId: 'acct_john1', role: 'customer' },
} as const satisfies Record<string, Caller>;

/** Who a request comes from: an account, another service (token only), or nobody (no token). */
export type Who = Caller | 'service' | 'nobody';

export interface CallOptions extends HttpCallOptions {
  as?: Who;
}

/** Every field a store answer may carry: an order, an inventory item or an error. */
export interface AnswerFields {
  id: number;
  petId: number;
  quantity: number;
  shipDate: string;
  complete: boolean;
  /** An inventory item's status, or an error's HTTP status. */
  status: PetStatus | number;
  code: string;
  message: string;
  requestId: string;
  details: { path: string; message: string }[];
}

/** An answer whose JSON body is one shape or a list (undefined when there is none). */
export type Answer = HttpAnswer<AnswerFields & AnswerFields[]>;

/** The headers the gateway would send for `who`. */
export function gatewayHeaders(who: Who): Record<string, string> {
  if (who === 'nobody') return {};
  if (who === 'service') return { [internalHeaders.token]: internalToken };
  return {
    [internalHeaders.token]: internalToken,
    [internalHeaders.accountId]: who.accountId,
    [internalHeaders.role]: who.role,
  };
}

/** Calls a service over HTTP as the gateway would (as the admin unless told otherwise). */
export function call(
  url: string,
  method: string,
  path: string,
  { as = accounts.admin, headers, ...options }: CallOptions = {},
): Promise<Answer> {
  return callHttp(url, method, path, {
    ...options,
    headers: { ...gatewayHeaders(as), ...headers },
  });
}

export function testLogger(name: string): Logger {
  return createLogger({ name, level: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'silent' });
}

/** A real pets service on a database of its own, which a test can stop and start again. */
export class PetsUnderTest {
  private running: RunningPets | undefined;
  private categoryId: number | undefined;
  port = 0;

  private readonly config: PetsConfig;

  /**
   * On a database of its own on `mongo`; `env` adds to its environment. Its events go where
   * nothing answers unless `env` names a `GATEWAY_URL`.
   */
  constructor(mongo: MongoServer, env: Record<string, string> = {}) {
    this.config = loadPetsConfig(
      serviceTestEnv(
        mongo,
        { database: 'pets', internalToken },
        { GATEWAY_URL: nowhere, EVENT_RELAY_INTERVAL_MS: '100', ...env },
      ),
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it, on the port it had before when it ran already. */
  async start(): Promise<void> {
    this.running = await startPets(this.config, {
      signals: [],
      port: this.port,
      logger: testLogger('pets'),
    });
    this.port = Number(new URL(this.running.url).port);
  }

  async stop(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
  }

  /** A new pet (in a category made once), as the admin would create it; its id. */
  async createPet(status?: PetStatus): Promise<number> {
    this.categoryId ??= (await this.post('/v1/categories', { name: 'Dogs' })).id;
    const pet = await this.post('/v1/pets', { name: 'Rex', categoryId: this.categoryId, status });
    return pet.id;
  }

  async deletePet(petId: number): Promise<void> {
    const answer = await call(this.url, 'DELETE', `/v1/pets/${petId}`);
    if (answer.status !== 204) throw new Error(`deleting pet ${petId}: ${answer.status}`);
  }

  /** The pet's status as the pets service tells the store. */
  async statusOf(petId: number): Promise<PetStatus> {
    const answer = await call(this.url, 'GET', `/internal/pets/${petId}`, { as: 'service' });
    if (answer.status !== 200) throw new Error(`pet ${petId}: ${answer.status}`);
    return (answer.body as unknown as Pet).status;
  }

  private async post(path: string, body: unknown) {
    const answer = await call(this.url, 'POST', path, { body });
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status}`);
    return answer.body as unknown as { id: number };
  }
}

/** The store service, started as in production (outbox worker included), on a test database. */
export class StoreUnderTest {
  private running: RunningStore | undefined;
  url = '';

  constructor(readonly config: StoreConfig) {}

  async start(): Promise<void> {
    this.running = await startStore(this.config, {
      signals: [],
      validateResponses: true,
      logger: testLogger('store'),
    });
    this.url = this.running.url;
  }

  async stop(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
  }

  call(method: string, path: string, options?: CallOptions): Promise<Answer> {
    return call(this.url, method, path, options);
  }
}

export interface Stack extends AsyncDisposable {
  mongo: MongoServer;
  /** Where pets and the store hand their events, as the gateway's `POST /internal/events`. */
  gateway: EventReceiver<RecordedEvent>;
  pets: PetsUnderTest;
  store: StoreUnderTest;
  /** The store's database, to look at what it stored. */
  storeDb: Db;
  /** A pet that exists in pets, with `quantity` in stock set through the store. */
  petWithStock(quantity: number): Promise<number>;
  /** Places an order as `as`, through the store's HTTP API. */
  placeOrder(as: Caller, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** The quantity in stock of a pet, as the store answers it. */
  stockOf(petId: number): Promise<number>;
}

/** A database server, a real pets service and the store pointing at it, all stopped on dispose. */
async function startStack(): Promise<Stack> {
  const mongo = await startMongo();
  const gateway = await new EventReceiver<RecordedEvent>().start();
  const pets = new PetsUnderTest(mongo, { GATEWAY_URL: gateway.url });
  let client: MongoClient | undefined;
  let store: StoreUnderTest | undefined;
  try {
    await pets.start();
    store = new StoreUnderTest(storeConfig(mongo, pets.url, { GATEWAY_URL: gateway.url }));
    await store.start();
    client = await connectMongo(mongo.uri, { appName: 'store-tests' });
  } catch (error) {
    await store?.stop();
    await pets.stop();
    await gateway.stop();
    await mongo.stop();
    throw error;
  }
  const storeDb = client.db(store.config.mongo.database);
  const started = store;
  const openClient = client;
  return {
    mongo,
    gateway,
    pets,
    store: started,
    storeDb,
    async petWithStock(quantity) {
      const petId = await pets.createPet();
      const answer = await started.call('PUT', `/v1/store/inventory/${petId}`, {
        body: { quantity },
      });
      if (answer.status !== 200) throw new Error(`stocking pet ${petId}: ${answer.status}`);
      // The store takes the stock's event off the entry once handed over: a test writing the
      // entry on a connection of its own could race that update.
      await vi.waitFor(async () => {
        const entry = await storeDb.collection('inventory').findOne({ _id: petId as never });
        if (entry?.pendingEventCount !== 0) throw new Error(`pet ${petId}: its event is pending`);
      });
      return petId;
    },
    placeOrder(as, body, headers) {
      return started.call('POST', '/v1/store/orders', { as, body, headers });
    },
    async stockOf(petId) {
      return (await started.call('GET', `/v1/store/inventory/${petId}`)).body.quantity;
    },
    async [Symbol.asyncDispose]() {
      await started.stop();
      await pets.stop();
      await gateway.stop();
      await openClient.close();
      await mongo.stop();
    },
  };
}

/**
 * `it` with a `stack` fixture: one stack for the file, started for the first test that takes it
 * and stopped after the file's last test.
 */
export const it = test.extend<{ stack: Stack }>({ stack: fileFixture(startStack) });

/**
 * The store's config for tests: a fresh database, a free port, quick outbox retries and event
 * relay; its events go where nothing answers unless `env` names a `GATEWAY_URL`.
 */
export function storeConfig(
  mongo: MongoServer,
  petsUrl: string,
  env: Record<string, string> = {},
): StoreConfig {
  return loadStoreConfig(
    serviceTestEnv(
      mongo,
      { database: 'store', internalToken },
      {
        PETS_URL: petsUrl,
        OUTBOX_INTERVAL_MS: '200',
        OUTBOX_MAX_BACKOFF_MS: '500',
        GATEWAY_URL: nowhere,
        EVENT_RELAY_INTERVAL_MS: '100',
        ...env,
      },
    ),
  );
}

/**
 * The store app alone (no outbox worker) with some deps replaced, on the stack's database and
 * pets, served on a free port; for behaviours that need, e.g., a shorter wait.
 */
export async function serveStoreApp(
  stack: Stack,
  deps: Partial<Omit<AppDeps, 'db' | 'config' | 'logger'>>,
): Promise<{ call: StoreUnderTest['call'] } & AsyncDisposable> {
  const config = stack.store.config;
  const client = await connectMongo(config.mongo.uri, { appName: 'store-app-tests' });
  const app = createApp({
    db: client.db(config.mongo.database),
    config,
    logger: testLogger('store-app'),
    validateResponses: true,
    ...deps,
  });
  const served = await serveHttp(app.callback());
  return {
    call: (method, path, options) => call(served.url, method, path, options),
    async [Symbol.asyncDispose]() {
      await served.close();
      await client.close();
    },
  };
}
