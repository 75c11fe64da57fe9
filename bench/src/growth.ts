import type { Stack } from '@petstore/stack';
import { MongoClient } from 'mongodb';
import {
  addCounts,
  percentile,
  sendBounded,
  type BoundedRequest,
  type Bounds,
} from './bounded-load.js';
import { createPet, DATABASE_NAMES, seed, setStock } from './fixtures.js';
import { copyPets, fillOrders, orderRequest, storedOrders } from './growth-fill.js';
import { loadAverage } from './machine.js';
import { cpuBetween, cpuByRole, cpuMicrosPerRequest } from './process-cpu.js';
import type { Database } from './scenario-ids.js';

/** The stored orders (g) measures at; at the last, `GROWTH_PETS` more pets are stored too. */
export const GROWTH_LEVELS = [1_000, 10_000, 50_000] as const;
export const GROWTH_PETS = 50_000;

/** (a): orders placed by this many clients at once, as the admin, on one pet. */
export const ORDER_CLIENTS = 8;
export const ORDER_SAMPLE: Bounds = { count: 1_000, seconds: 60 };
/** (b)–(e): one client, one request after the other; the first few are dropped. */
const READ_WARMUP: Bounds = { count: 5, seconds: 5 };
const READ_SAMPLE: Bounds = { count: 200, seconds: 20 };
/**
 * Before the first level, so that the database's JIT and the services' have compiled the paths:
 * the reads, then orders the store refuses (a pet out of stock: 409, nothing stored), then a few
 * real orders. Real orders alone would store thousands before the JIT is done with them.
 */
const WARMUP_READS: Bounds = { count: 20_000, seconds: 10 };
const WARMUP_REFUSED_ORDERS: Bounds = { count: 50_000, seconds: 30 };
const WARMUP_ORDERS: Bounds = { count: 500, seconds: 30 };
/** The customer's orders, placed once after the warm-up: a few among the admin's many. */
const CUSTOMER_ORDERS = 5;

export type GrowthRead = 'adminOrders' | 'customerOrders' | 'pets' | 'inventory';

export const GROWTH_READS: Record<GrowthRead, string> = {
  adminOrders: '`GET /v1/store/orders?limit=20` as the admin',
  customerOrders: `\`GET /v1/store/orders?limit=20\` as a customer with ${CUSTOMER_ORDERS} orders`,
  pets: '`GET /v1/pets?limit=20`',
  inventory: '`GET /v1/store/inventory?limit=20`',
};

/** A read measured at one level: latencies of one client sending it again and again. */
export interface ReadSample {
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than 2xx by status (`error`: no answer): any spoils the level. */
  failed: Record<string, number>;
}

/** What (g) measured at one level. */
export interface GrowthLevel {
  /** The level aimed at: stored orders. */
  target: number;
  /** Orders stored when the reads were measured (the fill may stop short, at its time bound). */
  orders: number;
  pets: number;
  stockEntries: number;
  /** (a): `ORDER_SAMPLE` orders placed right after the reads, by `ORDER_CLIENTS` clients. */
  placing: {
    orders: number;
    seconds: number;
    ordersPerSecond: number;
    p50Ms: number;
    failed: Record<string, number>;
    /**
     * CPU time per order, in µs, of each process of the stack (from `/proc`): steadier than
     * orders/s when something else runs on the machine.
     */
    cpuMicrosPerOrder: Record<string, number>;
  };
  reads: Record<GrowthRead, ReadSample>;
  /** The 1-minute load average before the level was measured. */
  loadAverageBefore: number;
  /** How long filling up to this level took, and what failed in it. */
  fill: { orders: number; seconds: number; failed: Record<string, number> };
}

export interface GrowthResult {
  database: Database;
  clients: number;
  levels: GrowthLevel[];
}

const round1 = (value: number) => Math.round(value * 10) / 10;

function get(path: string, apiKey: string): BoundedRequest {
  return { path, method: 'GET', headers: { authorization: `Bearer ${apiKey}` } };
}

/** p50 and p99 of one client sending `request` again and again, after a few dropped. */
async function measureRead(stack: Stack, request: BoundedRequest): Promise<ReadSample> {
  await sendBounded(stack.url, 1, READ_WARMUP, () => request);
  const run = await sendBounded(stack.url, 1, READ_SAMPLE, () => request);
  return {
    p50Ms: round1(percentile(run.latenciesMs, 0.5)),
    p99Ms: round1(percentile(run.latenciesMs, 0.99)),
    requests: run.ok,
    failed: run.failed,
  };
}

/**
 * (g): one stack, as `pnpm start` runs it, measured as its store grows. After a warm-up, at each
 * of `GROWTH_LEVELS` stored orders (placed through the gateway as the admin; at the last level
 * with `GROWTH_PETS` more pets, each with stock): the p50 of four list reads, then the orders per
 * second `ORDER_CLIENTS` clients place.
 */
export async function runGrowth(
  stack: Stack,
  database: Database,
  log: (line: string) => void,
): Promise<GrowthResult> {
  const client = await new MongoClient(stack.database.uri).connect();
  try {
    const dbs = { pets: client.db(DATABASE_NAMES.pets), store: client.db(DATABASE_NAMES.store) };
    const { categoryId, petId, customer } = await seed(stack);
    const reads: Record<GrowthRead, BoundedRequest> = {
      adminOrders: get('/v1/store/orders?limit=20', stack.adminApiKey),
      customerOrders: get('/v1/store/orders?limit=20', customer.apiKey),
      pets: get('/v1/pets?limit=20', stack.adminApiKey),
      inventory: get('/v1/store/inventory?limit=20', stack.adminApiKey),
    };
    const order = orderRequest(petId, stack.adminApiKey);
    const readList = Object.values(reads);
    const anyRead = (i: number) => readList[i % readList.length] ?? reads.pets;

    log(
      `(g) warming up: ${WARMUP_READS.seconds} s of the four reads, ${WARMUP_REFUSED_ORDERS.seconds} s` +
        ` of orders refused for want of stock, then ${WARMUP_ORDERS.count} orders`,
    );
    await sendBounded(stack.url, ORDER_CLIENTS, WARMUP_READS, anyRead);
    const outOfStock = await createPet(stack, categoryId, 'Out of stock');
    await setStock(stack, outOfStock, 0);
    const refused = orderRequest(outOfStock, stack.adminApiKey);
    await sendBounded(stack.url, ORDER_CLIENTS, WARMUP_REFUSED_ORDERS, () => refused);
    await sendBounded(stack.url, ORDER_CLIENTS, WARMUP_ORDERS, () => order);
    const customerOrders = orderRequest(petId, customer.apiKey);
    const placedByCustomer = await sendBounded(
      stack.url,
      1,
      { count: CUSTOMER_ORDERS, seconds: 30 },
      () => customerOrders,
    );
    if (placedByCustomer.ok !== CUSTOMER_ORDERS) {
      throw new Error(
        `[bench] (g): the customer's orders failed: ${JSON.stringify(placedByCustomer.failed)}`,
      );
    }

    const levels: GrowthLevel[] = [];
    for (const target of GROWTH_LEVELS) {
      if (target === GROWTH_LEVELS.at(-1)) {
        const started = Date.now();
        await copyPets(stack, dbs, categoryId, GROWTH_PETS);
        log(
          `(g) stored ${GROWTH_PETS} more pets, each with stock, in ${(Date.now() - started) / 1000} s`,
        );
      }
      log(`(g) placing orders up to ${target} stored orders`);
      const fill = await fillOrders(stack, dbs.store, petId, target);
      log(
        `(g) placed ${fill.ok} orders in ${fill.seconds.toFixed(1)} s` +
          (Object.keys(fill.failed).length > 0 ? `; failed: ${JSON.stringify(fill.failed)}` : ''),
      );
      const orders = await storedOrders(dbs.store);
      if (orders < target) log(`(g) the fill stopped at its time bound with ${orders} orders`);
      const loadAverageBefore = loadAverage();
      const measured = {} as Record<GrowthRead, ReadSample>;
      for (const [name, request] of Object.entries(reads) as [GrowthRead, BoundedRequest][]) {
        measured[name] = await measureRead(stack, request);
      }
      const cpuBefore = await cpuByRole();
      const placing = await sendBounded(stack.url, ORDER_CLIENTS, ORDER_SAMPLE, () => order);
      const cpu = cpuBetween(cpuBefore, await cpuByRole());
      const level: GrowthLevel = {
        target,
        orders,
        pets: await dbs.pets.collection('pets').countDocuments({}),
        stockEntries: await dbs.store.collection('inventory').countDocuments({}),
        placing: {
          orders: placing.ok,
          seconds: round1(placing.seconds),
          ordersPerSecond: Math.round(placing.ok / placing.seconds),
          p50Ms: round1(percentile(placing.latenciesMs, 0.5)),
          failed: placing.failed,
          cpuMicrosPerOrder: cpuMicrosPerRequest(cpu, placing.ok),
        },
        reads: measured,
        loadAverageBefore,
        fill: { orders: fill.ok, seconds: round1(fill.seconds), failed: fill.failed },
      };
      log(
        `(g) at ${orders} orders: ${level.placing.ordersPerSecond} orders/s, CPU µs per order: ` +
          Object.entries(level.placing.cpuMicrosPerOrder)
            .map(([role, us]) => `${role} ${us}`)
            .join(', ') +
          '; p50 ms: ' +
          Object.entries(measured)
            .map(([name, sample]) => `${name} ${sample.p50Ms}`)
            .join(', ') +
          (spoiledLevel(level) ? '; NOT all 2xx' : ''),
      );
      levels.push(level);
    }
    return { database, clients: ORDER_CLIENTS, levels };
  } finally {
    await client.close();
  }
}

/** A level some of whose measured requests were not answered 2xx measured something else. */
export function spoiledLevel(level: GrowthLevel): boolean {
  return Object.keys(levelFailures(level)).length > 0;
}

/** The level's measured requests not answered 2xx, by status (`error`: no answer). */
export function levelFailures(level: GrowthLevel): Record<string, number> {
  const reads = Object.values(level.reads).map((read) => read.failed);
  return [level.placing.failed, ...reads].reduce(addCounts, {});
}
