import { setTimeout as sleep } from 'node:timers/promises';
import type { Prng } from '../support/prng.js';
import {
  errorCodeOf,
  notSettled,
  refused,
  type ChaosClient,
  type Operation,
  type Reply,
  type RequestSpec,
  type RetryPolicy,
} from './chaos-client.js';

export interface Customer {
  accountId: string;
  apiKey: string;
}

/**
 * How a request ended for the client: `done` (its success answer), `rejected` (an answer, or a
 * refused connection, saying it did nothing), or `unknown` (it may or may not have taken effect).
 */
export type Outcome = 'done' | 'rejected' | 'unknown';

/** One order a customer placed, and what became of its closing if one was asked for. */
export interface OrderRecord {
  customer: Customer;
  petId: number;
  quantity: number;
  /** The `Idempotency-Key` it was sent (and every retry resent) with, if any. */
  key?: string;
  outcome: Outcome;
  /** The order's id, when it was answered 201. */
  id?: number;
  /** A cancel by its owner or a completion by the admin, each retried until it settles. */
  closing?: { kind: 'cancel' | 'complete'; outcome: Outcome };
}

export interface MessageRecord {
  customer: Customer;
  text: string;
  outcome: Outcome;
  /** The message's id, when it was answered 202. */
  id?: string;
}

/** What the customers asked for and what they were told, for the checks afterwards. */
export class ChaosLedger {
  readonly orders: OrderRecord[] = [];
  readonly messages: MessageRecord[] = [];
}

export interface CustomerRun {
  client: ChaosClient;
  rng: Prng;
  customer: Customer;
  /** Which customer this is, to name what it sends. */
  index: number;
  adminApiKey: string;
  petIds: readonly number[];
  ledger: ChaosLedger;
  tag: string;
  /** The load stops at this time (`Date.now()`), or after `maxActions`, whichever comes first. */
  deadline: number;
  maxActions: number;
}

/** Requests whose effect a retry settles: at most 8 attempts, over about 6 s of backoff. */
const SETTLE: RetryPolicy = { retry: notSettled, maxAttempts: 8 };
/**
 * An order under an `Idempotency-Key` is retried as `SETTLE`, and also while the key's first
 * request is still in progress (409 `conflict`, "retry later").
 */
const SETTLE_ORDER: RetryPolicy = {
  retry: (reply) => notSettled(reply) || errorCodeOf(reply) === 'conflict',
  maxAttempts: 8,
};
/** A request without a key is sent again only when it cannot have arrived. */
const UNSAFE: RetryPolicy = { retry: refused, maxAttempts: 4 };

function outcomeOf(reply: Reply, success: number): Outcome {
  if (reply.answered && reply.status === success) return 'done';
  if (refused(reply)) return 'rejected';
  if (reply.answered && reply.status >= 400 && reply.status < 500) {
    // An idempotent request still in progress elsewhere may yet take effect.
    return errorCodeOf(reply) === 'conflict' ? 'unknown' : 'rejected';
  }
  return 'unknown';
}

function idOf(reply: Reply): unknown {
  return reply.answered && typeof reply.body === 'object' && reply.body !== null
    ? (reply.body as { id?: unknown }).id
    : undefined;
}

/**
 * One customer, for a bounded time and number of actions: places orders (half of them with an
 * `Idempotency-Key`), cancels some of its open orders and has the admin complete others (both
 * retried until they settle), sends messages, and reads its orders and the stock.
 */
export async function runCustomer(run: CustomerRun): Promise<void> {
  const { client, rng, customer, index, adminApiKey, petIds, ledger, tag } =
    run;
  /** Its orders answered 201 that nobody has closed or tried to. */
  const open: OrderRecord[] = [];
  const takeOpen = () => open.splice(rng.int(0, open.length - 1), 1)[0];
  /** Sends `method path` with the customer's key, or the key `more` gives. */
  const send = (
    operation: Operation,
    method: string,
    path: string,
    more: Partial<RequestSpec> = {},
    policy?: RetryPolicy,
  ) =>
    client.send(
      operation,
      { method, path, apiKey: customer.apiKey, ...more },
      rng,
      policy,
    );

  for (
    let action = 0;
    action < run.maxActions && Date.now() < run.deadline;
    action++
  ) {
    const roll = rng.next();
    if (roll < 0.45 || open.length === 0) {
      const record: OrderRecord = {
        customer,
        petId: rng.pick(petIds),
        quantity: rng.int(1, 3),
        outcome: 'unknown',
        ...(rng.chance(0.5) ? { key: `${tag}-c${index}-a${action}` } : {}),
      };
      ledger.orders.push(record);
      const { reply } = await send(
        'order',
        'POST',
        '/v1/store/orders',
        {
          body: { petId: record.petId, quantity: record.quantity },
          headers:
            record.key === undefined ? {} : { 'idempotency-key': record.key },
        },
        record.key === undefined ? UNSAFE : SETTLE_ORDER,
      );
      record.outcome = outcomeOf(reply, 201);
      const id = idOf(reply);
      if (record.outcome === 'done' && typeof id === 'number') {
        record.id = id;
        open.push(record);
      }
    } else if (roll < 0.6) {
      const order = takeOpen();
      if (!order) continue;
      order.closing = { kind: 'cancel', outcome: 'unknown' };
      const { reply } = await send(
        'cancel',
        'DELETE',
        `/v1/store/orders/${order.id}`,
        {},
        SETTLE,
      );
      order.closing.outcome = outcomeOf(reply, 204);
    } else if (roll < 0.72) {
      const order = takeOpen();
      if (!order) continue;
      order.closing = { kind: 'complete', outcome: 'unknown' };
      const { reply } = await send(
        'complete',
        'PATCH',
        `/v1/store/orders/${order.id}`,
        { apiKey: adminApiKey, body: { complete: true } },
        SETTLE,
      );
      const completed =
        reply.answered &&
        (reply.body as { complete?: unknown } | undefined)?.complete === true;
      order.closing.outcome = completed
        ? outcomeOf(reply, 200)
        : outcomeOf(reply, -1);
    } else if (roll < 0.9) {
      const record: MessageRecord = {
        customer,
        text: `${tag} message c${index} a${action}`,
        outcome: 'unknown',
      };
      ledger.messages.push(record);
      const { reply } = await send(
        'message',
        'POST',
        '/v1/messages',
        { body: { message: record.text } },
        UNSAFE,
      );
      record.outcome = outcomeOf(reply, 202);
      const id = idOf(reply);
      if (record.outcome === 'done' && typeof id === 'string') record.id = id;
    } else if (rng.chance(0.5) && open.length > 0) {
      const order = rng.pick(open);
      await send('readOrder', 'GET', `/v1/store/orders/${order.id}`);
    } else {
      await send(
        'readInventory',
        'GET',
        `/v1/store/inventory/${rng.pick(petIds)}`,
      );
    }
    // A customer's pause between two actions.
    await sleep(rng.int(0, 40));
  }
}
