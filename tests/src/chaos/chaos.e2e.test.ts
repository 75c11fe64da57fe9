import {
  ErrorSchema,
  WebhookEventSchema,
  WebhookEventTypeSchema,
  type WebhookEvent,
} from '@petstore/contract';
import type { ServiceProcess } from '@petstore/stack';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unfinishedWork } from '../support/background-work.js';
import { ok, petInStock } from '../support/catalogue.js';
import { databaseNames, type DatabaseReader } from '../support/databases.js';
import { Prng, seedFrom } from '../support/prng.js';
import {
  startTestStack,
  unthrottled,
  type TestStack,
} from '../support/test-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  ChaosClient,
  errorCodeOf,
  type Exchange,
  type Operation,
} from './chaos-client.js';
import {
  ChaosLedger,
  runCustomer,
  type Customer,
  type OrderRecord,
} from './customers.js';
import {
  injectFaults,
  restartStopped,
  type InjectedFault,
} from './fault-injector.js';

/**
 * Chaos: two processes of every service on the embedded database (a data folder), customers
 * sending a mixed load through both gateways, and every few seconds one service process killed
 * with SIGKILL and started again. Once the load is over and the stack has settled, what the
 * customers were told must agree with what the databases hold and what the webhook heard.
 * The seed (CHAOS_SEED) fixes what each customer does and which process dies when.
 */

const SEED = seedFrom('CHAOS_SEED', 20_251_125);
/** How long the load runs (CHAOS_LOAD_MS, at most 60 s). */
const LOAD_MS = Math.min(60_000, seedFrom('CHAOS_LOAD_MS', 40_000));
const CUSTOMERS = 6;
/** Each customer's bound on actions, whatever the time. */
const MAX_ACTIONS = 1_500;
/** Past this, an attempt counts as unanswered (the gateway gives up on a service after 5 s). */
const GUARD_MS = 10_000;
/** One pet runs out of stock again and again; the others never do. */
const STOCKS = [40, 100_000, 100_000, 100_000];

const everyType = WebhookEventTypeSchema.options;

/** What each operation may answer under these faults; anything else is a finding. */
const ALLOWED: Record<Operation, { success: number; errors: string[] }> = {
  order: {
    success: 201,
    // `conflict`: the same Idempotency-Key is still in progress elsewhere ("retry later").
    errors: [
      'insufficient_stock',
      'conflict',
      'bad_gateway',
      'service_unavailable',
      'upstream_timeout',
    ],
  },
  cancel: {
    success: 204,
    errors: ['bad_gateway', 'service_unavailable', 'upstream_timeout'],
  },
  complete: {
    success: 200,
    errors: ['bad_gateway', 'service_unavailable', 'upstream_timeout'],
  },
  message: {
    success: 202,
    errors: ['service_unavailable', 'upstream_timeout'],
  },
  readOrder: {
    success: 200,
    errors: ['bad_gateway', 'service_unavailable', 'upstream_timeout'],
  },
  readInventory: {
    success: 200,
    errors: ['bad_gateway', 'service_unavailable', 'upstream_timeout'],
  },
};

const env = {
  ...unthrottled,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  // Whatever a killed process was doing is taken over within seconds, not the default minutes:
  // message and webhook leases, the workers' polls, the outboxes' retries.
  WEBHOOK_POLL_MS: '500',
  WEBHOOK_LEASE_MS: '3000',
  WEBHOOK_RETRY_DELAYS_MS: '250,500,1000,2000,4000,8000,8000,8000',
  MESSAGE_POLL_MS: '500',
  MESSAGE_LEASE_MS: '3000',
  EVENT_RELAY_INTERVAL_MS: '500',
  OUTBOX_MAX_BACKOFF_MS: '1000',
  // The store's repair of a pet status whose push a kill lost before it was recorded.
  STATUS_RECONCILE_MS: '2000',
};

let api: TestStack;
let reader: DatabaseReader;
let receiver: WebhookReceiver;
let secret: string;
let client: ChaosClient;
const ledger = new ChaosLedger();
let faults: InjectedFault[] = [];
const pets: { id: number; initialStock: number }[] = [];
let tag: string;

const log = (line: string) => {
  console.log(line);
};

function summary(exchanges: Exchange[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { operation, reply } of exchanges) {
    const key = `${operation} ${reply.answered ? `${reply.status}${errorCodeOf(reply) ? ` ${errorCodeOf(reply)}` : ''}` : reply.reason}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.fromEntries(
    Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)),
  );
}

beforeAll(async () => {
  log(
    `[chaos] seed ${SEED} (CHAOS_SEED=${SEED} replays it), load ${LOAD_MS} ms`,
  );
  const rng = new Prng(SEED);
  api = await startTestStack(env, {
    replicas: { pets: 2, store: 2, gateway: 2 },
  });
  reader = await api.databases();
  receiver = await WebhookReceiver.start();
  secret = ok(
    await api.admin.webhooks.createWebhook({
      body: { url: receiver.url, events: [...everyType] },
    }),
    201,
  ).body.secret;
  tag = `chaos${SEED}x${Date.now()}`;
  const category = ok(
    await api.admin.categories.createCategory({
      body: { name: `${tag} pets` },
    }),
    201,
  );
  for (const [index, stock] of STOCKS.entries()) {
    const id = await petInStock(
      api.admin,
      category.body.id,
      stock,
      `${tag} pet ${index}`,
    );
    pets.push({ id, initialStock: stock });
  }
  const customers: Customer[] = [];
  for (let index = 0; index < CUSTOMERS; index++) {
    const { apiKey, accountId } = await api.signUp(
      `${tag}.customer${index}@example.com`,
    );
    customers.push({ apiKey, accountId });
  }

  const { replicas } = api.stack;
  const processes: ServiceProcess[] = [
    ...replicas.pets,
    ...replicas.store,
    ...replicas.gateway,
  ];
  const startedAt = Date.now();
  const deadline = startedAt + LOAD_MS;
  client = new ChaosClient(
    replicas.gateway.map((gateway) => gateway.url),
    GUARD_MS,
    startedAt,
  );
  const faultRng = rng.fork(0);
  const [injected] = await Promise.all([
    injectFaults({
      processes,
      rng: faultRng,
      startedAt,
      deadline,
      gapMs: { min: 1_000, max: 3_500 },
      maxFaults: 40,
      report: log,
    }),
    ...customers.map((customer, index) =>
      runCustomer({
        client,
        rng: rng.fork(index + 1),
        customer,
        index,
        adminApiKey: api.stack.adminApiKey,
        petIds: pets.map((pet) => pet.id),
        ledger,
        tag,
        deadline,
        maxActions: MAX_ACTIONS,
      }),
    ),
  ]);
  faults = injected;
  const restarted = await restartStopped(processes);
  if (restarted.length > 0)
    log(`[chaos] started again after the load: ${restarted.join(', ')}`);

  const counts = summary(client.exchanges);
  const statuses = (status: number) =>
    client.exchanges.filter(
      ({ reply }) => reply.answered && reply.status === status,
    ).length;
  log(
    `[chaos] seed ${SEED}: ${faults.length} faults (${faults.map((fault) => fault.process).join(', ')}), ` +
      `${client.exchanges.length} attempts, 503: ${statuses(503)}, 504: ${statuses(504)}, ` +
      `502: ${statuses(502)}, unanswered: ${client.exchanges.filter(({ reply }) => !reply.answered).length}`,
  );
  log(`[chaos] answers: ${JSON.stringify(counts, null, 1)}`);
  const outcomes = (records: { outcome: string }[]) =>
    records.reduce<Record<string, number>>((all, { outcome }) => {
      all[outcome] = (all[outcome] ?? 0) + 1;
      return all;
    }, {});
  log(
    `[chaos] orders ${JSON.stringify(outcomes(ledger.orders))}, messages ${JSON.stringify(outcomes(ledger.messages))}, ` +
      `cancels ${JSON.stringify(outcomes(closings('cancel')))}, completions ${JSON.stringify(outcomes(closings('complete')))}`,
  );
}, 170_000);

afterAll(async () => {
  await receiver?.down();
  await api?.[Symbol.asyncDispose]();
});

function closings(kind: 'cancel' | 'complete') {
  return ledger.orders.flatMap((order) =>
    order.closing?.kind === kind
      ? [{ order, outcome: order.closing.outcome }]
      : [],
  );
}

interface StoredOrder {
  _id: number;
  ownerId: string;
  petId: number;
  quantity: number;
  complete: boolean;
  cancelled: boolean;
}

/** Every order stored for the load's pets, with the `Idempotency-Key` record that placed it. */
async function storedOrders(): Promise<
  (StoredOrder & { idempotencyKey?: string })[]
> {
  const store = reader.db(databaseNames.store);
  const orders = await store
    .collection<StoredOrder>('orders')
    .find({ petId: { $in: pets.map((pet) => pet.id) } })
    .toArray();
  const keys = await store
    .collection<{
      _id: string;
      response: { status: number; body: { id?: number } };
    }>('idempotency_keys')
    .find({ 'response.status': 201 })
    .toArray();
  const keyOf = new Map(
    keys.map(({ _id, response }) => [response.body.id, _id]),
  );
  return orders.map((order) => ({
    ...order,
    idempotencyKey: keyOf.get(order._id),
  }));
}

async function inventory(): Promise<
  Map<number, { quantity: number; openOrders: number }>
> {
  const entries = await reader
    .db(databaseNames.store)
    .collection<{ _id: number; quantity: number; openOrders: number }>(
      'inventory',
    )
    .find({ _id: { $in: pets.map((pet) => pet.id) } })
    .toArray();
  return new Map(entries.map((entry) => [entry._id, entry]));
}

/** The record of the `Idempotency-Key` a customer sent (as stored on its order). */
const keyRecord = (order: OrderRecord) =>
  `${order.customer.accountId}:${order.key}`;

/** The webhook's receipts so far, each verified with the webhook's secret (a bad one throws). */
const verified: WebhookEvent[] = [];
function verifiedEvents(): WebhookEvent[] {
  const webhook = new Webhook(secret);
  for (const { headers, body } of receiver.receipts.slice(verified.length)) {
    const plain = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, String(value)]),
    );
    verified.push(WebhookEventSchema.parse(webhook.verify(body, plain)));
  }
  return verified;
}

describe(`chaos: SIGKILLs of pets, store and gateway replicas under load (seed ${SEED})`, () => {
  it('was under load while processes were killed', () => {
    expect(faults.length).toBeGreaterThan(0);
    expect(faults.filter((fault) => fault.restartError)).toEqual([]);
    expect(faults.filter((fault) => fault.downMs === undefined)).toEqual([]);
    expect(
      ledger.orders.filter((order) => order.outcome === 'done').length,
    ).toBeGreaterThan(0);
  });

  it('settles: no event, status push, message or delivery left', async () => {
    const began = Date.now();
    log(
      `[chaos] left to settle: ${(await unfinishedWork(reader)).join(', ') || 'nothing'}`,
    );
    await expect
      .poll(() => unfinishedWork(reader), { timeout: 60_000, interval: 250 })
      .toEqual([]);
    log(`[chaos] settled in ${Date.now() - began} ms`);
  });

  it('never answers 500, and answers every error in the Error shape', () => {
    const described = ({
      operation,
      method,
      path,
      attempt,
      gateway,
      at,
      reply,
    }: Exchange) =>
      `${operation} ${method} ${path} (attempt ${attempt}, ${gateway}, +${at} ms) → ${
        reply.answered
          ? `${reply.status} ${JSON.stringify(reply.body)}`
          : reply.reason
      }`;
    const failures = client.exchanges.filter(
      ({ reply }) => reply.answered && reply.status >= 500,
    );
    expect(
      failures
        .filter(({ reply }) => reply.answered && reply.status === 500)
        .map(described),
    ).toEqual([]);
    const malformed = client.exchanges.filter(({ reply }) => {
      if (!reply.answered || reply.status < 400) return false;
      const error = ErrorSchema.safeParse(reply.body);
      return (
        !error.success ||
        error.data.status !== reply.status ||
        !/^application\/json\b/.test(reply.contentType)
      );
    });
    expect(malformed.map(described)).toEqual([]);
  });

  it('answers each request with its success or an error its fault explains', () => {
    const unexpected = client.exchanges.filter(({ operation, reply }) => {
      if (!reply.answered) return false;
      const allowed = ALLOWED[operation];
      if (reply.status === allowed.success) return false;
      return !allowed.errors.includes(errorCodeOf(reply) ?? '');
    });
    expect(
      unexpected.map(
        ({ operation, method, path, attempt, at, reply }) =>
          `${operation} ${method} ${path} (attempt ${attempt}, +${at} ms) → ${
            reply.answered
              ? `${reply.status} ${JSON.stringify(reply.body)}`
              : ''
          }`,
      ),
    ).toEqual([]);
  });

  it('keeps every acknowledged order, cancel and completion, and stores no order nobody asked for', async () => {
    const stored = await storedOrders();
    const byId = new Map(stored.map((order) => [order._id, order]));
    const problems: string[] = [];
    const placed = ledger.orders.filter((order) => order.outcome === 'done');
    for (const order of placed) {
      const document = order.id === undefined ? undefined : byId.get(order.id);
      const expected = {
        ownerId: order.customer.accountId,
        petId: order.petId,
        quantity: order.quantity,
        idempotencyKey: order.key === undefined ? undefined : keyRecord(order),
      };
      if (
        !document ||
        document.ownerId !== expected.ownerId ||
        document.petId !== expected.petId ||
        document.quantity !== expected.quantity ||
        document.idempotencyKey !== expected.idempotencyKey
      ) {
        problems.push(
          `order ${order.id} answered 201 for ${JSON.stringify(expected)} is stored as ${JSON.stringify(document)}`,
        );
        continue;
      }
      const closing = order.closing;
      const cancelled =
        closing?.kind === 'cancel' ? closing.outcome : 'never asked';
      const completed =
        closing?.kind === 'complete' ? closing.outcome : 'never asked';
      if (
        (cancelled === 'done' && !document.cancelled) ||
        (cancelled === 'never asked' && document.cancelled)
      ) {
        problems.push(
          `order ${order.id}: cancel ${cancelled}, stored cancelled: ${document.cancelled}`,
        );
      }
      if (
        (completed === 'done' && !document.complete) ||
        (completed === 'never asked' && document.complete)
      ) {
        problems.push(
          `order ${order.id}: completion ${completed}, stored complete: ${document.complete}`,
        );
      }
    }
    // An order stored without a 201 must be one whose request's outcome was unknown.
    const acknowledged = new Set(placed.map((order) => order.id));
    const unknown = ledger.orders.filter(
      (order) => order.outcome === 'unknown',
    );
    for (const document of stored) {
      if (acknowledged.has(document._id)) continue;
      const index = unknown.findIndex(
        (order) =>
          order.customer.accountId === document.ownerId &&
          order.petId === document.petId &&
          order.quantity === document.quantity &&
          (order.key === undefined
            ? document.idempotencyKey === undefined
            : keyRecord(order) === document.idempotencyKey),
      );
      if (index >= 0) unknown.splice(index, 1);
      else
        problems.push(
          `order ${JSON.stringify(document)} is stored, but no request for it was left unknown`,
        );
    }
    expect(problems, `${placed.length} orders acknowledged`).toEqual([]);
  });

  it('hands out each order id once, and places one order per account and Idempotency-Key', async () => {
    const ids = ledger.orders.flatMap((order) =>
      order.id === undefined ? [] : [order.id],
    );
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated, 'order ids answered to two requests').toEqual([]);
    const perKey = new Map<string, number[]>();
    const stored = await storedOrders();
    for (const order of stored) {
      if (order.idempotencyKey === undefined) continue;
      perKey.set(order.idempotencyKey, [
        ...(perKey.get(order.idempotencyKey) ?? []),
        order._id,
      ]);
    }
    expect(
      [...perKey]
        .filter(([, orders]) => orders.length > 1)
        .map(([key, orders]) => `${key}: ${orders.join(', ')}`),
    ).toEqual([]);
    // A key answers one outcome: a client finally told no has no order placed under its key.
    const toldNo = ledger.orders.filter(
      (order) =>
        order.key !== undefined &&
        order.outcome === 'rejected' &&
        perKey.has(keyRecord(order)),
    );
    expect(
      toldNo.map(
        (order) =>
          `${keyRecord(order)}: ${perKey.get(keyRecord(order))?.join(', ')}`,
      ),
    ).toEqual([]);
  });

  it('conserves each pet’s stock and counts its open orders exactly', async () => {
    const stored = await storedOrders();
    const entries = await inventory();
    const books = pets.map((pet) => {
      const orders = stored.filter((order) => order.petId === pet.id);
      const entry = entries.get(pet.id);
      return {
        petId: pet.id,
        initialStock: pet.initialStock,
        stockPlusOrdered:
          (entry?.quantity ?? Number.NaN) +
          orders
            .filter((order) => !order.cancelled)
            .reduce((sum, order) => sum + order.quantity, 0),
        openOrders: entry?.openOrders,
        ordersOpen: orders.filter(
          (order) => !order.cancelled && !order.complete,
        ).length,
      };
    });
    expect(books).toEqual(
      books.map((book) => ({
        ...book,
        stockPlusOrdered: book.initialStock,
        openOrders: book.ordersOpen,
      })),
    );
  });

  it('brings every pet’s status in the pets service to the status the store derives', async () => {
    const entries = await inventory();
    const derived = pets.map((pet) => {
      const entry = entries.get(pet.id);
      let status = 'sold';
      if ((entry?.openOrders ?? 0) > 0) status = 'pending';
      if ((entry?.quantity ?? 0) > 0) status = 'available';
      return { petId: pet.id, status };
    });
    const held = async () => {
      const documents = await reader
        .db(databaseNames.pets)
        .collection<{ _id: number; status: string }>('pets')
        .find({ _id: { $in: pets.map((pet) => pet.id) } })
        .toArray();
      return pets.map((pet) => ({
        petId: pet.id,
        status: documents.find((document) => document._id === pet.id)?.status,
      }));
    };
    await expect.poll(held).toEqual(derived);
    const repairs = api.logs.filter((line) =>
      line.includes('pets has another status'),
    ).length;
    log(
      `[chaos] pet statuses the store's reconciliation pushed again: ${repairs}`,
    );
  });

  it('delivers every acknowledged message exactly once', async () => {
    const accepted = ledger.messages.filter(
      (message) => message.outcome === 'done',
    );
    const stored = await reader
      .db(databaseNames.gateway)
      .collection<{
        _id: string;
        accountId: string;
        message: string;
        status: string;
      }>('messages')
      .find({ message: { $regex: `^${tag} message ` } })
      .toArray();
    const byId = new Map(stored.map((message) => [message._id, message]));
    const notDelivered = accepted.filter((message) => {
      const document =
        message.id === undefined ? undefined : byId.get(message.id);
      return (
        document?.message !== message.text ||
        document.accountId !== message.customer.accountId ||
        document.status !== 'delivered'
      );
    });
    expect(
      notDelivered.map(
        (message) =>
          `${message.id}: ${JSON.stringify(byId.get(message.id ?? ''))}`,
      ),
    ).toEqual([]);
    // One message.delivered event for each (its deliveries to the webhook may repeat it).
    const eventsOf = () => {
      const events = new Map<string, Set<string>>();
      for (const event of verifiedEvents()) {
        if (event.type !== 'message.delivered') continue;
        const id = String(event.data.id);
        events.set(id, (events.get(id) ?? new Set()).add(event.id));
      }
      return events;
    };
    await expect
      .poll(() =>
        accepted
          .filter((message) => !eventsOf().has(message.id ?? ''))
          .map((message) => message.id),
      )
      .toEqual([]);
    const events = eventsOf();
    expect(
      accepted
        .filter((message) => events.get(message.id ?? '')?.size !== 1)
        .map((message) => message.id),
    ).toEqual([]);
    // Delivery itself (a log line) is at least once: a gateway killed between it and marking the
    // message delivered leaves it to another. Printed, not asserted.
    const logged = new Map<string, number>();
    for (const line of api.logs) {
      if (!line.includes('"msg":"message delivered"')) continue;
      const { messageId } = JSON.parse(line) as { messageId: string };
      logged.set(messageId, (logged.get(messageId) ?? 0) + 1);
    }
    const again = accepted.filter(
      (message) => (logged.get(message.id ?? '') ?? 0) > 1,
    );
    log(
      `[chaos] messages whose delivery was logged more than once: ${again.length}`,
    );
    const phantom = stored.filter(
      (document) =>
        !accepted.some((message) => message.id === document._id) &&
        !ledger.messages.some(
          (message) =>
            message.outcome === 'unknown' && message.text === document.message,
        ),
    );
    expect(phantom.map((document) => document._id)).toEqual([]);
  });

  it('tells the webhook of every acknowledged order, cancel and completion, signed', async () => {
    const missing = () => {
      const seen = new Set(
        verifiedEvents().map(
          (event) =>
            `${event.type} ${String((event.data as { id?: unknown }).id)}`,
        ),
      );
      const expected = ledger.orders.flatMap((order) => {
        if (order.outcome !== 'done') return [];
        const events = [`order.created ${order.id}`];
        if (order.closing?.outcome === 'done') {
          events.push(
            `order.${order.closing.kind === 'cancel' ? 'cancelled' : 'completed'} ${order.id}`,
          );
        }
        return events;
      });
      return expected.filter((event) => !seen.has(event));
    };
    await expect.poll(missing, { timeout: 30_000 }).toEqual([]);
    // Each receipt's webhook-id is its event's id.
    const mismatched = receiver.receipts.filter(
      ({ headers, body }) =>
        (JSON.parse(body) as { id: string }).id !== headers['webhook-id'],
    );
    expect(mismatched).toEqual([]);
  });
});
