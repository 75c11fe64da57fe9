import type { Pet, PetStatus, RecordedEvent } from '@petstore/contract';
import { loadPetsConfig, startPets } from '@petstore/pets';
import {
  connectMongo,
  createLogger,
  type Logger,
  type LogLevel,
} from '@petstore/service-kit';
import {
  accounts,
  EventReceiver,
  serviceTestEnv,
  ServiceUnderTest,
  testInternalToken as internalToken,
  type Account,
  type HttpAnswer,
  type HttpCallOptions,
  type MongoServer,
} from '@petstore/testkit';
import { test } from '@petstore/testkit/vitest';
import type { Db, MongoClient } from 'mongodb';
import { loadStoreConfig, type StoreConfig } from '../config.js';
import { startStore } from '../start.js';

/** The discard port: events sent there stay pending. */
const nowhere = 'http://127.0.0.1:9';

/** Every field a store response may carry: an order, an inventory item or an error. */
export interface StoreFields {
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

export type StoreResponse = HttpAnswer<StoreFields & StoreFields[]>;

export function testLogger(name: string): Logger {
  return createLogger({
    name,
    level: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'silent',
  });
}

/** The store's config for tests: quick outbox retries and event relay; pets asked every time. */
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
        OUTBOX_MAX_BACKOFF_MS: '500',
        GATEWAY_URL: nowhere,
        EVENT_RELAY_INTERVAL_MS: '100',
        PET_CONFIRMED_MS: '0',
        ...env,
      },
    ),
  );
}

/** The store as in production (its workers included); calls go as the admin's by default. */
export class StoreUnderTest extends ServiceUnderTest {
  constructor(readonly config: StoreConfig) {
    const logger = testLogger('store');
    super(
      (port) =>
        startStore(config, {
          signals: [],
          port,
          validateResponses: true,
          logger,
        }),
      {
        as: accounts.admin,
      },
    );
  }

  override call<Body = StoreResponse['body']>(
    method: string,
    path: string,
    options?: HttpCallOptions,
  ): Promise<HttpAnswer<Body>> {
    return super.call<Body>(method, path, options);
  }
}

/** A real pets service on a database of its own, called as the admin by default. */
export class PetsUnderTest extends ServiceUnderTest {
  #categoryId: number | undefined;

  constructor(mongo: MongoServer, env: Record<string, string> = {}) {
    const config = loadPetsConfig(
      serviceTestEnv(
        mongo,
        { database: 'pets', internalToken },
        { GATEWAY_URL: nowhere, EVENT_RELAY_INTERVAL_MS: '100', ...env },
      ),
    );
    const logger = testLogger('pets');
    super((port) => startPets(config, { signals: [], port, logger }), {
      as: accounts.admin,
    });
  }

  async createPet(status?: PetStatus): Promise<number> {
    this.#categoryId ??= await this.#post('/v1/categories', { name: 'Dogs' });
    return this.#post('/v1/pets', {
      name: 'Rex',
      categoryId: this.#categoryId,
      status,
    });
  }

  async deletePet(petId: number): Promise<void> {
    const response = await this.call('DELETE', `/v1/pets/${petId}`);
    if (response.status !== 204)
      throw new Error(`deleting pet ${petId}: ${response.status}`);
  }

  /** The pet's status as pets tells the store. */
  async statusOf(petId: number): Promise<PetStatus> {
    const response = await this.call<Pet>('GET', `/internal/pets/${petId}`, {
      as: 'service',
    });
    if (response.status !== 200)
      throw new Error(`pet ${petId}: ${response.status}`);
    return response.body.status;
  }

  async #post(path: string, body: unknown): Promise<number> {
    const response = await this.call<{ id: number }>('POST', path, { body });
    if (response.status !== 201)
      throw new Error(`POST ${path}: ${response.status}`);
    return response.body.id;
  }
}

/** The store on a fresh database of `mongo`, asking pets at `petsUrl`; `await using` stops it. */
export function startTestStore(
  mongo: MongoServer,
  { petsUrl, env }: { petsUrl: string; env?: Record<string, string> },
): Promise<StoreUnderTest> {
  return new StoreUnderTest(storeConfig(mongo, petsUrl, env)).start();
}

/** A real pets service on a fresh database of `mongo`; `await using` stops it. */
export function startTestPets(
  mongo: MongoServer,
  { env }: { env?: Record<string, string> } = {},
): Promise<PetsUnderTest> {
  return new PetsUnderTest(mongo, env).start();
}

/** Every page of a list, following Link rel="next" from `path`. */
export async function pagesOf(
  store: StoreUnderTest,
  path: string,
  as: Account,
): Promise<StoreResponse[]> {
  const pages: StoreResponse[] = [];
  for (let next: string | undefined = path; next;) {
    const page: StoreResponse = await store.call('GET', next, { as });
    if (page.status !== 200) throw new Error(`GET ${next}: ${page.status}`);
    pages.push(page);
    next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1];
  }
  return pages;
}

export interface OpenOrder {
  petId: number;
  orderId: number;
  placed: StoreResponse;
  /** The order's path, `/v1/store/orders/{orderId}`. */
  path: string;
}

export interface Stack {
  /** Where pets and the store send their events, as the gateway's `POST /internal/events`. */
  gateway: EventReceiver<RecordedEvent>;
  pets: PetsUnderTest;
  store: StoreUnderTest;
  /** The store's database, to look at what it stored, and a client of its server. */
  storeDb: Db;
  client: MongoClient;
  /** A pet that exists in pets, with `quantity` in stock set through the store. */
  petWithStock(quantity: number): Promise<number>;
  placeOrder(
    as: Account,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<StoreResponse>;
  /** A pet with `stock` in stock and an open order of `quantity` by jane. */
  openOrder(stock: number, quantity: number): Promise<OpenOrder>;
  stockOf(petId: number): Promise<number>;
  /** Runs `run` with pets stopped, and starts pets again on the same port. */
  whilePetsDown(run: () => Promise<void>): Promise<void>;
}

/** `it` with a `stack`: pets and the store on the file's database server, for the whole file. */
export const it = test.extend<{ stack: Stack }>({
  stack: [
    async ({ mongo }, use) => {
      await using gateway = await new EventReceiver<RecordedEvent>().start();
      const env = { GATEWAY_URL: gateway.url };
      await using pets = await startTestPets(mongo, { env });
      await using store = await startTestStore(mongo, {
        petsUrl: pets.url,
        env,
      });
      const client = await connectMongo(mongo.uri, { appName: 'store-tests' });
      const storeDb = client.db(store.config.mongo.database);
      try {
        await use({
          gateway,
          pets,
          store,
          storeDb,
          client,
          async petWithStock(quantity) {
            const petId = await pets.createPet();
            const path = `/v1/store/inventory/${petId}`;
            const response = await store.call('PUT', path, {
              body: { quantity },
            });
            if (response.status !== 200) {
              throw new Error(`stocking pet ${petId}: ${response.status}`);
            }
            return petId;
          },
          async openOrder(stock, quantity) {
            const petId = await this.petWithStock(stock);
            const placed = await this.placeOrder(accounts.jane, {
              petId,
              quantity,
            });
            if (placed.status !== 201)
              throw new Error(`ordering pet ${petId}: ${placed.status}`);
            const orderId = placed.body.id;
            return {
              petId,
              orderId,
              placed,
              path: `/v1/store/orders/${orderId}`,
            };
          },
          placeOrder: (as, body, headers) =>
            store.call('POST', '/v1/store/orders', { as, body, headers }),
          async whilePetsDown(run) {
            await pets.stop();
            try {
              await run();
            } finally {
              await pets.start();
            }
          },
          stockOf: async (petId) =>
            (await store.call('GET', `/v1/store/inventory/${petId}`)).body
              .quantity,
        });
      } finally {
        await client.close();
      }
    },
    { scope: 'file' },
  ],
});
