import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack, type Stack } from '@petstore/stack';
import {
  callHttp,
  freePort,
  spawnGuarded,
  type HttpAnswer,
  type HttpCallOptions,
} from '@petstore/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseNames, DatabaseReader } from '../support/databases.js';
import { unthrottled } from '../support/test-stack.js';

/**
 * The whole stack dies at once, as on a power cut or the OOM killer: `pnpm start`'s process, the
 * services and the database, by SIGKILL, while writes are being answered. Started again on the
 * same data folder, it must hold every write it acknowledged, and hand out no id twice.
 */

/** What `pnpm start` runs once it has built everything. */
const PNPM_START = fileURLToPath(
  new URL('../../../packages/stack/dist/main.js', import.meta.url),
);

/** The embedded mongod keeps its data in the data folder (`mongodb/`). */
const env = { ...unthrottled, LOG_LEVEL: 'warn' };

/** Past this, a request has hung (the stack answers in milliseconds while it is up). */
const GUARD_MS = 10_000;

/** One request to the gateway at `baseUrl`; throws when no answer comes (e.g. the stack died). */
function request(
  baseUrl: string,
  method: string,
  path: string,
  options: HttpCallOptions,
): Promise<HttpAnswer> {
  return callHttp(baseUrl, method, path, {
    ...options,
    signal: AbortSignal.timeout(GUARD_MS),
  });
}

/** `answer.body.<field>`, which a 2xx answer of the operation always has. */
function field<T>(answer: HttpAnswer, name: string): T {
  return (answer.body as Record<string, T>)[name] as T;
}

/** An answer that must be `status`: anything else throws with the answer. */
function expectStatus(
  answer: HttpAnswer,
  status: number,
  what: string,
): HttpAnswer {
  if (answer.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
  return answer;
}

interface Customer {
  accountId: string;
  apiKey: string;
}

interface AcknowledgedOrder {
  id: number;
  petId: number;
  quantity: number;
  owner: Customer;
  idempotencyKey?: string;
}

/** Every write the stack acknowledged (answered 2xx), with what it answered; and what it was asked. */
class Ledger {
  readonly orders = new Map<number, AcknowledgedOrder>();
  /** Orders a cancel (a completion) was sent for, answered or not; and those answered 2xx. */
  readonly cancelling = new Set<number>();
  readonly cancelled = new Set<number>();
  readonly completing = new Set<number>();
  readonly completed = new Set<number>();
  readonly messages = new Map<string, { text: string; owner: Customer }>();
  /** Every key handed out (a sign-up's or a new key), by key. */
  readonly keys = new Map<string, { accountId: string }>();
  /** Keys a revocation was sent for, answered or not; and those whose revocation was answered 204. */
  readonly revoking = new Set<string>();
  readonly revoked = new Set<string>();
  /** Per pet that gets no orders: the last stock acknowledged, and the one in flight if any. */
  readonly stock = new Map<
    number,
    { acknowledged?: number; inFlight?: number }
  >();
  readonly categories = new Map<number, string>();
  readonly pets = new Map<number, string>();
  /** Requests that got no answer: the stack died under them. */
  unanswered = 0;

  counts() {
    const stocks = [...this.stock.values()].map(
      (each) => each.acknowledged ?? 0,
    );
    return {
      orders: this.orders.size,
      cancelled: this.cancelled.size,
      completed: this.completed.size,
      messages: this.messages.size,
      keys: this.keys.size,
      revoked: this.revoked.size,
      leastStock: Math.min(...stocks),
      categories: this.categories.size,
      pets: this.pets.size,
    };
  }
}

/** The pids of `root` and every process under it, deepest first (from /proc). */
async function processTree(root: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid …": the name may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const levels: number[][] = [[root]];
  for (;;) {
    const next = (levels.at(-1) ?? []).flatMap(
      (pid) => children.get(pid) ?? [],
    );
    if (next.length === 0) break;
    levels.push(next);
  }
  return levels.reverse().flat();
}

/**
 * What a process runs (`mongod`, `node`, `sh`): the name of its program, from its command line
 * (Node 24 renames its process `MainThread`); undefined once it is gone or a zombie.
 */
async function running(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(
    () => undefined,
  );
  if (stat === undefined) return undefined;
  const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  if (state === 'Z' || state === 'X') return undefined;
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(
    () => '',
  );
  return basename(commandLine.split('\0')[0] ?? '');
}

/** `pnpm start` on the data folder, as a guarded child; resolves once it prints its banner. */
async function pnpmStart(
  dataDir: string,
  output: string[],
): Promise<{ child: ChildProcess; url: string }> {
  const [port, petsPort, storePort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
  ]);
  const child = spawnGuarded(process.execPath, [PNPM_START], {
    env: {
      ...process.env,
      ...env,
      MONGODB_URI: undefined,
      DATA_DIR: dataDir,
      PORT: String(port),
      PETS_PORT: String(petsPort),
      STORE_PORT: String(storePort),
    },
  });
  const started = new Promise<void>((resolve, reject) => {
    const onData = (chunk: string) => {
      output.push(chunk);
      if (output.join('').includes('Ctrl-C stops everything.')) resolve();
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => {
      reject(
        new Error(
          `pnpm start exited (${code}) before it started: ${output.join('')}`,
        ),
      );
    });
  });
  await started;
  return { child, url: `http://127.0.0.1:${port}` };
}

const before = {
  dataDir: '',
  output: [] as string[],
  child: undefined as ChildProcess | undefined,
  /** What each process of the first stack ran, as killed (`mongod`, `node`, `sh`). */
  killed: [] as (string | undefined)[],
};
const ledger = new Ledger();
let restarted: Stack | undefined;
let reader: DatabaseReader;
let adminKey: string;

/** A bounded, concurrent mix of writes through the gateway, each recorded once acknowledged. */
function startLoad(
  url: string,
  setup: { customers: Customer[]; orderPets: number[]; tag: string },
) {
  let stopped = false;
  const { customers, orderPets, tag } = setup;
  const customer = (i: number) => customers[i % customers.length] as Customer;

  /** Runs `step` until the load stops; a request left unanswered (the stack died) ends it. */
  const worker = async (step: (i: number) => Promise<void>) => {
    for (let i = 0; !stopped; i++) {
      try {
        await step(i);
      } catch {
        ledger.unanswered++;
        return;
      }
    }
  };

  const orders = (worker_: number) =>
    worker(async (i) => {
      const owner = customer(worker_ + i);
      const petId = orderPets[(worker_ + i) % orderPets.length] as number;
      const quantity = 1 + (i % 3);
      // Every other order with an Idempotency-Key, so that its record must survive too.
      const idempotencyKey = i % 2 === 0 ? `${tag}-${worker_}-${i}` : undefined;
      const placed = await request(url, 'POST', '/v1/store/orders', {
        apiKey: owner.apiKey,
        body: { petId, quantity },
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
      });
      if (placed.status !== 201) return;
      const id = field<number>(placed, 'id');
      ledger.orders.set(id, { id, petId, quantity, owner, idempotencyKey });
      // A third of the orders are cancelled by their owner, a third completed by the admin.
      if (i % 3 === 1) {
        ledger.cancelling.add(id);
        const cancel = await request(url, 'DELETE', `/v1/store/orders/${id}`, {
          apiKey: owner.apiKey,
        });
        if (cancel.status === 204) ledger.cancelled.add(id);
      } else if (i % 3 === 2) {
        ledger.completing.add(id);
        const complete = await request(url, 'PATCH', `/v1/store/orders/${id}`, {
          apiKey: adminKey,
          body: { complete: true },
        });
        if (complete.status === 200) ledger.completed.add(id);
      }
    });

  const signUps = worker(async (i) => {
    const signUp = await request(url, 'POST', '/v1/accounts', {
      body: { email: `${tag}.signup${i}@example.com` },
    });
    if (signUp.status === 201) {
      ledger.keys.set(field(signUp, 'apiKey'), {
        accountId: field(signUp, 'id'),
      });
    }
  });

  const keys = worker(async (i) => {
    const owner = customer(i);
    const created = await request(url, 'POST', '/v1/accounts/me/keys', {
      apiKey: owner.apiKey,
    });
    if (created.status !== 201) return;
    const apiKey = field<string>(created, 'apiKey');
    ledger.keys.set(apiKey, { accountId: owner.accountId });
    // Every other new key is revoked at once.
    if (i % 2 === 0) {
      ledger.revoking.add(apiKey);
      const revoke = await request(
        url,
        'DELETE',
        `/v1/accounts/me/keys/${field<string>(created, 'id')}`,
        { apiKey: owner.apiKey },
      );
      if (revoke.status === 204) ledger.revoked.add(apiKey);
    }
  });

  // One writer per pet that gets no orders, with growing counts: the last one answered is the
  // stock, or the one after it if it was in flight at the kill.
  const stock = (petId: number) =>
    worker(async (i) => {
      const entry = ledger.stock.get(petId) ?? {};
      const quantity = i + 1;
      entry.inFlight = quantity;
      const put = await request(url, 'PUT', `/v1/store/inventory/${petId}`, {
        apiKey: adminKey,
        body: { quantity },
      });
      entry.inFlight = undefined;
      if (put.status === 200 && field(put, 'quantity') === quantity)
        entry.acknowledged = quantity;
    });

  const messages = worker(async (i) => {
    const owner = customer(i);
    const text = `${tag} message ${i}`;
    const sent = await request(url, 'POST', '/v1/messages', {
      apiKey: owner.apiKey,
      body: { message: text },
    });
    if (sent.status === 202)
      ledger.messages.set(field(sent, 'id'), { text, owner });
  });

  const catalogue = worker(async (i) => {
    const name = `${tag} category ${i}`;
    const category = await request(url, 'POST', '/v1/categories', {
      apiKey: adminKey,
      body: { name },
    });
    if (category.status !== 201) return;
    const categoryId = field<number>(category, 'id');
    ledger.categories.set(categoryId, name);
    const petName = `${tag} pet ${i}`;
    const pet = await request(url, 'POST', '/v1/pets', {
      apiKey: adminKey,
      body: { name: petName, categoryId },
    });
    if (pet.status === 201) ledger.pets.set(field(pet, 'id'), petName);
  });

  return {
    workers: [
      orders(0),
      orders(1),
      orders(2),
      signUps,
      keys,
      messages,
      catalogue,
    ],
    stock,
    stop() {
      stopped = true;
    },
  };
}

beforeAll(async () => {
  before.dataDir = await mkdtemp(join(tmpdir(), 'petstore-kill-9-'));
  const first = await pnpmStart(before.dataDir, before.output);
  before.child = first.child;
  adminKey = (
    await readFile(join(before.dataDir, 'admin-api-key'), 'utf8')
  ).trim();
  const url = first.url;
  const tag = `kill9x${Date.now()}`;

  // Pets for orders, with stock no order runs out of; pets for stock only, which get no orders.
  const category = expectStatus(
    await request(url, 'POST', '/v1/categories', {
      apiKey: adminKey,
      body: { name: `${tag} pets` },
    }),
    201,
    'category',
  );
  ledger.categories.set(field(category, 'id'), `${tag} pets`);
  const pet = async (name: string) => {
    const created = await request(url, 'POST', '/v1/pets', {
      apiKey: adminKey,
      body: { name, categoryId: field(category, 'id') },
    });
    const id = field<number>(expectStatus(created, 201, 'pet'), 'id');
    ledger.pets.set(id, name);
    return id;
  };
  const orderPets: number[] = [];
  for (let i = 0; i < 3; i++) {
    const petId = await pet(`${tag} ordered ${i}`);
    expectStatus(
      await request(url, 'PUT', `/v1/store/inventory/${petId}`, {
        apiKey: adminKey,
        body: { quantity: 1_000_000 },
      }),
      200,
      'stock',
    );
    orderPets.push(petId);
  }
  const stockPets = [
    await pet(`${tag} stocked 0`),
    await pet(`${tag} stocked 1`),
  ];
  for (const petId of stockPets) ledger.stock.set(petId, {});
  const customers: Customer[] = [];
  for (let i = 0; i < 4; i++) {
    const signUp = expectStatus(
      await request(url, 'POST', '/v1/accounts', {
        body: { email: `${tag}.customer${i}@example.com` },
      }),
      201,
      'sign-up',
    );
    customers.push({
      accountId: field(signUp, 'id'),
      apiKey: field(signUp, 'apiKey'),
    });
    ledger.keys.set(field(signUp, 'apiKey'), {
      accountId: field(signUp, 'id'),
    });
  }

  // Every process of the stack, found while they all run: pnpm start's, the database's, the
  // services', and the guards between them.
  const tree = await processTree(before.child.pid ?? 0);
  const names = await Promise.all(tree.map(running));

  const load = startLoad(url, { customers, orderPets, tag });
  const stockWriters = stockPets.map(load.stock);
  try {
    // Well into the load, with every kind of write answered many times: the kill comes while
    // requests are in flight and just after many were acknowledged.
    await vi.waitFor(
      () => {
        const counts = ledger.counts();
        expect(
          Object.values(counts).every((count) => count >= 15),
          JSON.stringify(counts),
        ).toBe(true);
      },
      { timeout: 60_000, interval: 20 },
    );
    // Every process at once, deepest first: the database and the services die before any guard
    // or pnpm start could ask them to stop.
    for (const pid of tree) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    before.killed = names;
  } catch (error) {
    load.stop();
    throw error;
  } finally {
    // After the kill each worker sends until a request gets no response: one in flight at the
    // kill, or the next one, refused. A response the gateway wrote just before it died is still
    // read, so stopping the load at the kill could leave no request unanswered.
    await Promise.all([...load.workers, ...stockWriters]);
  }
  if (before.child.exitCode === null && before.child.signalCode === null) {
    await once(before.child, 'exit');
  }
  // Reaped: none of them runs any more.
  await vi.waitFor(
    async () => {
      expect((await Promise.all(tree.map(running))).filter(Boolean)).toEqual(
        [],
      );
    },
    { timeout: 10_000, interval: 50 },
  );

  // Started again at once on the same folder.
  restarted = await startStack({ dataDir: before.dataDir, env, stdio: 'pipe' });
  reader = await DatabaseReader.connect(restarted.database.uri);
}, 180_000);

afterAll(async () => {
  await reader?.close();
  await restarted?.stop();
  // Only when something failed before the kill: the first stack stops as pnpm start does.
  if (
    before.child &&
    before.child.exitCode === null &&
    before.child.signalCode === null
  ) {
    before.child.stdin?.end();
    await once(before.child, 'exit');
  }
  if (before.dataDir)
    await rm(before.dataDir, { recursive: true, force: true });
});

/** The restarted gateway. */
const api = (
  method: string,
  path: string,
  options: Parameters<typeof request>[3] = {},
) => request(restarted?.url ?? '', method, path, options);

/** Runs `check` on every item, a few at a time. */
async function eachOf<T>(
  items: T[],
  check: (item: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += 8)
    await Promise.all(items.slice(i, i + 8).map(check));
}

describe('a stack killed with SIGKILL under load, then started again on its data folder', () => {
  it('was killed whole under load', () => {
    // The database, pnpm start and the three services, and the guards between them.
    expect(before.killed.filter((name) => name === 'mongod')).toHaveLength(1);
    expect(before.killed.filter((name) => name === 'node')).toHaveLength(4);
    expect(ledger.unanswered).toBeGreaterThan(0);
  });

  it('holds every acknowledged order with its quantity, cancellation and completion', async () => {
    const orders = await reader
      .db(databaseNames.store)
      .collection<{
        _id: number;
        petId: number;
        quantity: number;
        ownerId: string;
        cancelled: boolean;
        complete: boolean;
        aborted?: true;
      }>('orders')
      .find({ _id: { $in: [...ledger.orders.keys()] } })
      .toArray();
    const stored = new Map(orders.map((order) => [order._id, order]));
    const wrong: string[] = [];
    for (const order of ledger.orders.values()) {
      const document = stored.get(order.id);
      // A cancel or completion sent but not answered may or may not have happened.
      const maybe = (
        sent: Set<number>,
        answered: Set<number>,
        now: boolean | undefined,
      ) => answered.has(order.id) || (sent.has(order.id) ? now : false);
      const expected = {
        petId: order.petId,
        quantity: order.quantity,
        ownerId: order.owner.accountId,
        aborted: undefined,
        cancelled: maybe(
          ledger.cancelling,
          ledger.cancelled,
          document?.cancelled,
        ),
        complete: maybe(
          ledger.completing,
          ledger.completed,
          document?.complete,
        ),
      };
      const actual = document && {
        petId: document.petId,
        quantity: document.quantity,
        ownerId: document.ownerId,
        aborted: document.aborted,
        cancelled: document.cancelled,
        complete: document.complete,
      };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        wrong.push(
          `order ${order.id}: acknowledged as ${JSON.stringify(expected)}, stored as ${JSON.stringify(actual)}`,
        );
      }
    }
    expect(wrong, `${ledger.orders.size} orders acknowledged`).toEqual([]);
  });

  it('answers a retry of every acknowledged order with an Idempotency-Key with the same order', async () => {
    const idempotent = [...ledger.orders.values()].filter(
      (order) => order.idempotencyKey,
    );
    expect(idempotent.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    await eachOf(idempotent, async (order) => {
      const retry = await api('POST', '/v1/store/orders', {
        apiKey: order.owner.apiKey,
        body: { petId: order.petId, quantity: order.quantity },
        headers: { 'idempotency-key': order.idempotencyKey ?? '' },
      });
      if (retry.status !== 201 || field(retry, 'id') !== order.id) {
        wrong.push(
          `order ${order.id} retried: ${retry.status} ${JSON.stringify(retry.body)}`,
        );
      }
    });
    expect(wrong).toEqual([]);
  });

  it('holds every acknowledged message', async () => {
    const stored = await reader
      .db(databaseNames.gateway)
      .collection<{ _id: string; message: string; accountId: string }>(
        'messages',
      )
      .find({ _id: { $in: [...ledger.messages.keys()] } })
      .toArray();
    const byId = new Map(stored.map((message) => [message._id, message]));
    const wrong = [...ledger.messages].flatMap(([id, { text, owner }]) => {
      const message = byId.get(id);
      return message?.message === text && message.accountId === owner.accountId
        ? []
        : [`message ${id} (${text}): stored as ${JSON.stringify(message)}`];
    });
    expect(wrong, `${ledger.messages.size} messages acknowledged`).toEqual([]);
  });

  it('lets every key handed out in, and refuses every key whose revocation was acknowledged', async () => {
    const wrong: string[] = [];
    await eachOf([...ledger.keys], async ([apiKey, { accountId }]) => {
      const me = await api('GET', '/v1/accounts/me', { apiKey });
      const prefix = apiKey.slice(0, 12);
      if (ledger.revoked.has(apiKey)) {
        if (me.status !== 401)
          wrong.push(`revoked key ${prefix}… answered ${me.status}`);
      } else if (!ledger.revoking.has(apiKey)) {
        if (me.status !== 200 || field(me, 'id') !== accountId) {
          wrong.push(
            `key ${prefix}… of ${accountId} answered ${me.status} ${JSON.stringify(me.body)}`,
          );
        }
      }
    });
    expect(
      wrong,
      `${ledger.keys.size} keys handed out, ${ledger.revoked.size} revoked`,
    ).toEqual([]);
  });

  it('holds the last acknowledged stock of every pet', async () => {
    for (const [petId, { acknowledged, inFlight }] of ledger.stock) {
      const item = await api('GET', `/v1/store/inventory/${petId}`, {
        apiKey: adminKey,
      });
      expect(item.status).toBe(200);
      // The PUT in flight at the kill may have been applied as well.
      expect([acknowledged, inFlight]).toContain(field(item, 'quantity'));
    }
  });

  it('holds every acknowledged category and pet', async () => {
    const pets = reader.db(databaseNames.pets);
    const categories = await pets
      .collection<{ _id: number; name: string }>('categories')
      .find({ _id: { $in: [...ledger.categories.keys()] } })
      .toArray();
    expect(
      new Map(categories.map((category) => [category._id, category.name])),
    ).toEqual(ledger.categories);
    const stored = await pets
      .collection<{ _id: number; name: string }>('pets')
      .find({ _id: { $in: [...ledger.pets.keys()] } })
      .toArray();
    expect(new Map(stored.map((pet) => [pet._id, pet.name]))).toEqual(
      ledger.pets,
    );
  });

  it('hands out no id twice: orders, categories and pets made after the restart get new ids', async () => {
    const customer = [...ledger.orders.values()][0]?.owner;
    const petId = [...ledger.orders.values()][0]?.petId;
    const tag = `after${Date.now()}`;
    const orderIds: number[] = [];
    const categoryIds: number[] = [];
    const petIds: number[] = [];
    for (let i = 0; i < 5; i++) {
      const order = await api('POST', '/v1/store/orders', {
        apiKey: customer?.apiKey,
        body: { petId, quantity: 1 },
      });
      orderIds.push(
        field(expectStatus(order, 201, 'order after the restart'), 'id'),
      );
      const category = await api('POST', '/v1/categories', {
        apiKey: adminKey,
        body: { name: `${tag} category ${i}` },
      });
      const categoryId = field<number>(
        expectStatus(category, 201, 'category after the restart'),
        'id',
      );
      categoryIds.push(categoryId);
      const pet = await api('POST', '/v1/pets', {
        apiKey: adminKey,
        body: { name: `${tag} pet ${i}`, categoryId },
      });
      petIds.push(field(expectStatus(pet, 201, 'pet after the restart'), 'id'));
    }
    expect(orderIds.filter((id) => ledger.orders.has(id))).toEqual([]);
    expect(categoryIds.filter((id) => ledger.categories.has(id))).toEqual([]);
    expect(petIds.filter((id) => ledger.pets.has(id))).toEqual([]);
  });
});
