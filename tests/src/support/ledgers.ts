import { ErrorSchema, type ErrorCode } from '@petstore/contract';
import { expect } from 'vitest';
import { databaseNames, type DatabaseReader } from './databases.js';
import type { Outcome, Workload, WorkloadRequest } from './workload.js';

/** What each kind of request answers when it succeeds. */
const SUCCESS: Record<WorkloadRequest['kind'], number> = {
  order: 201,
  message: 202,
  signUp: 201,
  read: 200,
};

function describeOutcome({ request, reply }: Outcome): string {
  const what =
    request.kind === 'read'
      ? `GET ${request.path}`
      : `${request.kind} ${JSON.stringify(request)}`;
  if (!reply.answered) return `${what} → ${reply.reason}`;
  return `${what} → ${reply.status} ${JSON.stringify(reply.body)}`;
}

/**
 * Every request got its success answer or one of the `errors` a fault may cause (an order may
 * also find the stock empty), as a valid Error body. None went unanswered, unless the gateway
 * itself was down: `refused` allows connections refused, `dropped` connections closed without an
 * answer. A 500, a 502, a hang is always a finding.
 */
export function expectOnlyAnswers(
  workload: Workload,
  errors: ErrorCode[],
  {
    refused = false,
    dropped = false,
  }: { refused?: boolean; dropped?: boolean } = {},
): void {
  const unexpected = workload.outcomes.filter((outcome) => {
    const { request, reply } = outcome;
    if (!reply.answered) {
      if (reply.hung) return true;
      return reply.refused ? !refused : !dropped;
    }
    if (reply.status === SUCCESS[request.kind]) return false;
    const error = ErrorSchema.safeParse(reply.body);
    if (!error.success || error.data.status !== reply.status) return true;
    const allowed: ErrorCode[] =
      request.kind === 'order' ? [...errors, 'insufficient_stock'] : errors;
    return !allowed.includes(error.data.code);
  });
  expect(unexpected.map(describeOutcome)).toEqual([]);
}

/** How many requests of a kind got a status (`'none'`: no answer). */
export function countOf(
  workload: Workload,
  kind: WorkloadRequest['kind'],
  status: number | 'none',
) {
  return workload.outcomes.filter(
    ({ request, reply }) =>
      request.kind === kind &&
      (reply.answered ? reply.status === status : status === 'none'),
  ).length;
}

interface OrderDocument {
  _id: number;
  ownerId: string;
  petId: number;
  quantity: number;
  cancelled: boolean;
}

function idOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'id' in body
    ? body.id
    : undefined;
}

/**
 * Whether nobody can know a request's effect: it reached the gateway but got no answer, or its
 * error is one of `unknown` — by default a 504 (the gateway gave up waiting for a service, which
 * may still have done the work). Its record may or may not be there; a client settles it by
 * retrying with an `Idempotency-Key`.
 */
function unknownEffect(
  { reply }: Outcome,
  unknown: readonly ErrorCode[],
): boolean {
  if (!reply.answered) return !reply.refused;
  const error = ErrorSchema.safeParse(reply.body);
  return error.success && unknown.includes(error.data.code);
}

/**
 * The ledgers balance, read through the driver: every order answered 201 is stored as placed and
 * every stored order of the workload's pets was answered 201; each pet's stock is its initial
 * stock minus what the stored orders took; every account answered 201 and every message answered
 * 202 is stored (and the messages get delivered), and no refused request left one behind.
 * Requests whose outcome is unknown (no answer, or an error in `unknown`) may have left their
 * whole record or not, and nothing more.
 */
export async function expectNothingLost(
  workload: Workload,
  reader: DatabaseReader,
  { unknown = ['upstream_timeout'] }: { unknown?: readonly ErrorCode[] } = {},
): Promise<void> {
  const { tag, pets } = workload.setup;
  const store = reader.db(databaseNames.store);
  const gateway = reader.db(databaseNames.gateway);
  const petIds = pets.map((pet) => pet.id);
  const problems: string[] = [];
  const outcomes = (kind: WorkloadRequest['kind']) =>
    workload.outcomes.filter(({ request }) => request.kind === kind);

  // Orders: each 201 is stored; nothing else is, unless a request never heard back.
  const orders = await store
    .collection<OrderDocument>('orders')
    .find({ petId: { $in: petIds } })
    .toArray();
  const ordersById = new Map(orders.map((order) => [order._id, order]));
  const confirmed = new Set<unknown>();
  const unknownOrders: WorkloadRequest[] = [];
  for (const outcome of outcomes('order')) {
    const { request, reply } = outcome;
    if (request.kind !== 'order') continue;
    if (reply.answered && reply.status === 201) {
      const id = idOf(reply.body);
      const stored = typeof id === 'number' ? ordersById.get(id) : undefined;
      const expected = {
        ownerId: request.accountId,
        petId: request.petId,
        cancelled: false,
      };
      if (
        !stored ||
        stored.ownerId !== expected.ownerId ||
        stored.petId !== expected.petId ||
        stored.quantity !== request.quantity ||
        stored.cancelled
      ) {
        problems.push(
          `order ${String(id)} was answered 201 but is stored as ${JSON.stringify(stored)}`,
        );
      }
      confirmed.add(id);
    } else if (unknownEffect(outcome, unknown)) {
      unknownOrders.push(request);
    }
  }
  for (const order of orders) {
    if (confirmed.has(order._id)) continue;
    const match = unknownOrders.findIndex(
      (request) =>
        request.kind === 'order' &&
        request.accountId === order.ownerId &&
        request.petId === order.petId &&
        request.quantity === order.quantity,
    );
    if (match >= 0) unknownOrders.splice(match, 1);
    else
      problems.push(
        `order ${order._id} is stored but no request was answered 201 for it`,
      );
  }

  // Stock: what the stored orders took, and nothing else, is gone.
  const stock = await store
    .collection<{ _id: number; quantity: number }>('inventory')
    .find({ _id: { $in: petIds } })
    .toArray();
  for (const pet of pets) {
    const taken = orders
      .filter((order) => order.petId === pet.id && !order.cancelled)
      .reduce((sum, order) => sum + order.quantity, 0);
    const left = stock.find((item) => item._id === pet.id)?.quantity;
    if (left !== pet.initialStock - taken) {
      problems.push(
        `pet ${pet.id} has ${String(left)} in stock, but ${pet.initialStock} less the ${taken} its orders took is ${pet.initialStock - taken}`,
      );
    }
  }

  // Accounts: stored exactly for the sign-ups answered 201.
  const accounts = await gateway
    .collection<{ _id: string; email: string }>('accounts')
    .find({ email: { $regex: `^${tag}\\.signup` } })
    .toArray();
  for (const outcome of outcomes('signUp')) {
    const { request, reply } = outcome;
    if (request.kind !== 'signUp') continue;
    const stored = accounts.find((account) => account.email === request.email);
    if (reply.answered && reply.status === 201) {
      if (stored?._id !== idOf(reply.body))
        problems.push(
          `sign-up ${request.email} was answered 201 but its account is not stored`,
        );
    } else if (!unknownEffect(outcome, unknown) && stored) {
      problems.push(
        `sign-up ${request.email} failed but its account ${stored._id} is stored`,
      );
    }
  }

  // Messages: stored exactly for the posts answered 202.
  const messages = gateway.collection<{
    _id: string;
    accountId: string;
    message: string;
    status: string;
  }>('messages');
  const stored = await messages
    .find({ message: { $regex: `^${tag} message ` } })
    .toArray();
  const accepted: string[] = [];
  for (const outcome of outcomes('message')) {
    const { request, reply } = outcome;
    if (request.kind !== 'message') continue;
    const message = stored.find(
      (document) => document.message === request.text,
    );
    if (reply.answered && reply.status === 202) {
      if (
        message?._id !== idOf(reply.body) ||
        message?.accountId !== request.accountId
      )
        problems.push(
          `message "${request.text}" was answered 202 but is not stored`,
        );
      else accepted.push(message._id);
    } else if (!unknownEffect(outcome, unknown) && message) {
      problems.push(
        `message "${request.text}" failed but ${message._id} is stored`,
      );
    }
  }
  expect(problems).toEqual([]);

  // And every accepted message is delivered in the end.
  await expect
    .poll(
      () =>
        messages
          .find({ _id: { $in: accepted }, status: { $ne: 'delivered' } })
          .project<{ _id: string }>({ _id: 1 })
          .toArray(),
      { timeout: 20_000 },
    )
    .toEqual([]);
}
