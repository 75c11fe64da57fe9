import { setTimeout as sleep } from 'node:timers/promises';
import { databaseCommands, type ServiceProcess } from '@petstore/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, stockedPet } from '../support/catalogue.js';
import {
  startTestStack,
  unthrottled,
  type TestStack,
} from '../support/test-stack.js';

/**
 * How many database commands each operation sends, counted by the driver's command monitoring in
 * every service that takes part (read from their metrics), so that a change adding a round trip
 * fails here; a transaction's commit counts as one. The gateway's key check is left out of the
 * proxied operations: it is cached. Its rate-limit window, shared through the database, is counted
 * where the gateway's own commands are: a gateway reserves a tenth of a window's burst in one
 * command, so with a window that outlasts the test every operation after the first keyed request
 * sends none.
 */
const BUDGETS = {
  // Counted in pets and the store, averaged over a stream of `STREAM` orders sent one after the
  // other, then settled. The order's transaction: the stock taken, the order inserted, its
  // messages added to the outbox, the commit. The outbox relay, woken by the commit: the due
  // messages claimed (a read and an update) and, once the gateway has them, deleted. Now and then
  // a block of order ids, and the pet asked of pets once its confirmation ran out.
  placeOrder: 8,
  // The same with an `Idempotency-Key`: the key looked up, and its record written, in the order's
  // transaction.
  placeOrderWithIdempotencyKey: 10,
  // The order's update, the stock's, the messages added and the commit; then the relay's three.
  cancelOrder: 7,
  completeOrder: 7,
  sendMessage: 2,
  getPet: 1,
  getInventoryItem: 1,
  // The message worker's part, which starts as soon as a message is queued: the claim, then in
  // one transaction its marking and message.delivered recorded, and the commit.
  deliverMessage: 3,
  // Recording message.delivered when no webhook wants it: the webhooks that might want it (none:
  // nothing is kept, no delivery worker is woken).
  messageEvent: 1,
};

/** Orders in the stream `placeOrder` and `placeOrderWithIdempotencyKey` are averaged over. */
const STREAM = 20;

/** What the message worker sends to deliver a message. */
const DELIVERY = new Set([
  'findAndModify messages',
  'update messages',
  'commitTransaction ',
]);
/** What recording a message's event sends in the gateway. */
const MESSAGE_EVENT = new Set(['find webhooks', 'insert webhook_deliveries']);

let api: TestStack;

beforeAll(async () => {
  api = await startTestStack({
    ...unthrottled,
    // One rate-limit window of 1000 s: its reservations are made while the fixtures are.
    RATE_LIMIT_PER_SECOND: '1000',
    RATE_LIMIT_BURST: '1000000',
    // No background work while operations are counted: only what they send themselves.
    EVENT_RELAY_INTERVAL_MS: '600000',
    STATUS_RECONCILE_MS: '3600000',
    MESSAGE_POLL_MS: '600000',
    KEY_USAGE_FLUSH_MS: '600000',
  });
});
afterAll(async () => {
  await api?.[Symbol.asyncDispose]();
});

/** Every command `processes` have sent so far, by `"<command> <collection>"`. */
async function commandsSent(
  processes: ServiceProcess[],
): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  for (const counts of await Promise.all(
    processes.map((process) => databaseCommands(process)),
  )) {
    for (const [command, count] of counts)
      sent.set(command, (sent.get(command) ?? 0) + count);
  }
  return sent;
}

/** Every command `processes` have sent, once they send no more. */
async function commandsOnceQuiet(
  processes: ServiceProcess[],
): Promise<Map<string, number>> {
  let last = '';
  await expect
    .poll(async () => {
      const now = JSON.stringify([...(await commandsSent(processes))]);
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
  return commandsSent(processes);
}

/**
 * The commands `processes` send while `operation` runs and its own after-work settles, by
 * `"<command> <collection>"`.
 */
async function commandsOf(
  processes: ServiceProcess[],
  operation: () => Promise<unknown>,
  settled: () => Promise<boolean> = () => Promise.resolve(true),
): Promise<Map<string, number>> {
  // What earlier steps left to do in the background (a status push) is done first.
  const before = await commandsOnceQuiet(processes);
  await operation();
  await expect.poll(settled).toBe(true);
  // A service counts a command once its reply is in: the database may show it a moment before.
  const after = await commandsOnceQuiet(processes);
  const sent = new Map<string, number>();
  for (const [command, count] of after) {
    const more = count - (before.get(command) ?? 0);
    if (more > 0) sent.set(command, more);
  }
  return sent;
}

/** Whether the outbox of `database` has sent everything it held. */
async function outboxEmpty(database: string): Promise<boolean> {
  const reader = await api.databases();
  return (
    (await reader.db(database).collection('outbox').countDocuments()) === 0
  );
}

const total = (
  commands: Map<string, number>,
  only: (command: string) => boolean = () => true,
) =>
  [...commands]
    .filter(([command]) => only(command))
    .reduce((sum, [, count]) => sum + count, 0);

describe('database commands per operation', () => {
  const reported: Record<string, number> = {};
  afterAll(() => {
    process.stdout.write(
      `database commands per operation: ${JSON.stringify(reported)}\n`,
    );
  });

  it('stay within their budgets', async () => {
    const { pets, store, gateway } = api.stack;
    const { petId } = await stockedPet(api.admin, 1_000);
    const { apiKey } = await api.signUp();
    const customer = api.client(apiKey);
    const reader = await api.databases();
    // Settled: the order's messages sent and deleted from the outbox.
    const sent = () => outboxEmpty('petstore_store');
    const order = async (headers?: Record<string, string>) => {
      const placed = ok(
        await customer.orders.placeOrder({
          body: { petId, quantity: 1 },
          headers,
        }),
        201,
      );
      return String(placed.body.id);
    };
    let keys = 0;
    const keyed = () => ({
      'idempotency-key': `budget-${Date.now()}-${++keys}`,
    });
    /** The average per order of a stream of `STREAM`, once settled. */
    const perOrder = async (place: () => Promise<unknown>) => {
      const stream = async () => {
        for (let index = 0; index < STREAM; index++) await place();
      };
      return total(await commandsOf([pets, store], stream, sent)) / STREAM;
    };

    // Stocking the pet moved its status: that push is done before anything is counted.
    await expect.poll(sent).toBe(true);
    // Lone orders, each settled before the next (within the same budgets): the first takes a block
    // of order ids too.
    reported.placeOrderFirst = total(
      await commandsOf([pets, store], order, sent),
    );
    let placed = '';
    reported.placeOrderAlone = total(
      await commandsOf(
        [pets, store],
        async () => {
          placed = await order();
        },
        sent,
      ),
    );
    reported.placeOrderWithIdempotencyKeyAlone = total(
      await commandsOf([pets, store], () => order(keyed()), sent),
    );
    reported.placeOrder = await perOrder(order);
    reported.placeOrderWithIdempotencyKey = await perOrder(() =>
      order(keyed()),
    );
    reported.cancelOrder = total(
      await commandsOf(
        [pets, store],
        () => customer.orders.cancelOrder({ params: { orderId: placed } }),
        sent,
      ),
    );
    const toComplete = await order();
    reported.completeOrder = total(
      await commandsOf(
        [pets, store],
        () =>
          api.admin.orders.updateOrder({
            params: { orderId: toComplete },
            body: { complete: true },
          }),
        sent,
      ),
    );
    let messageId = '';
    const message = await commandsOf(
      [gateway],
      async () => {
        const queued = ok(
          await customer.messages.sendMessage({ body: { message: 'counted' } }),
          202,
        );
        messageId = queued.body.id;
      },
      async () =>
        (
          await reader
            .db('petstore_gateway')
            .collection('messages')
            .findOne({ _id: messageId as never })
        )?.status === 'delivered',
    );
    reported.sendMessage = total(
      message,
      (command) => !DELIVERY.has(command) && !MESSAGE_EVENT.has(command),
    );
    reported.messageEvent = total(message, (command) =>
      MESSAGE_EVENT.has(command),
    );
    reported.deliverMessage = total(message, (command) =>
      DELIVERY.has(command),
    );
    reported.getPet = total(
      await commandsOf([pets, store], () =>
        customer.pets.getPet({ params: { petId: String(petId) } }),
      ),
    );
    reported.getInventoryItem = total(
      await commandsOf([pets, store], () =>
        customer.inventory.getInventoryItem({
          params: { petId: String(petId) },
        }),
      ),
    );

    for (const [operation, budget] of Object.entries(BUDGETS)) {
      expect(reported[operation], operation).toBeLessThanOrEqual(budget);
    }
    // A lone order may find its pet's confirmation ran out while the steps before it ran (a slow
    // machine): the stream's "now and then" read of the pet in pets, once more.
    const lone = {
      placeOrderFirst: BUDGETS.placeOrder + 1,
      placeOrderAlone: BUDGETS.placeOrder + 1,
      placeOrderWithIdempotencyKeyAlone:
        BUDGETS.placeOrderWithIdempotencyKey + 1,
    };
    for (const [operation, budget] of Object.entries(lone)) {
      expect(reported[operation], operation).toBeLessThanOrEqual(budget);
    }
  });
});

describe('orders of one pet sent at once', () => {
  it('go in batches, one transaction after another in a store process: none runs twice', async () => {
    const { petId } = await stockedPet(api.admin, 1_000);
    const { apiKey } = await api.signUp();
    const customer = api.client(apiKey);
    const sent = () => outboxEmpty('petstore_store');
    await expect.poll(sent).toBe(true);
    const orders = 16;
    const placeAll = () =>
      Promise.all(
        Array.from({ length: orders }, async () =>
          ok(
            await customer.orders.placeOrder({ body: { petId, quantity: 1 } }),
            201,
          ),
        ),
      );
    const commands = await commandsOf([api.stack.store], placeAll, sent);
    // Orders that come while a transaction of their pet runs go together in the next. A
    // transaction that conflicted would have inserted its orders again, and aborted.
    const transactions = commands.get('commitTransaction ') ?? 0;
    expect(transactions).toBeGreaterThan(0);
    expect(transactions).toBeLessThanOrEqual(orders);
    expect(commands.get('insert orders')).toBe(transactions);
    expect(commands.get('abortTransaction ')).toBeUndefined();
  });
});

describe('background work when idle', () => {
  it('sends at most one command a second per service', async () => {
    await using idle = await startTestStack();
    const processes = [idle.stack.pets, idle.stack.store, idle.stack.gateway];
    const count = () =>
      Promise.all(processes.map((process) => databaseCommands(process)));
    const before = await count();
    const windowMs = 10_000;
    // A window of idle time is what is measured: nothing is waited for.
    await sleep(windowMs);
    const after = await count();
    const perSecond = after.map(
      (commands, index) =>
        (total(commands) - total(before[index] ?? new Map<string, number>())) /
        (windowMs / 1000),
    );
    process.stdout.write(
      `idle database commands per second: ${JSON.stringify(perSecond)}\n`,
    );
    for (const rate of perSecond) expect(rate).toBeLessThanOrEqual(1);
  });
});
