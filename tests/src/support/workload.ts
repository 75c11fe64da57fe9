import { setTimeout as sleep } from 'node:timers/promises';
import { callHttp, type HttpCallOptions } from '@petstore/testkit';
import { ok, petInStock } from './catalogue.js';
import type { TestStack } from './test-stack.js';

export interface Customer {
  apiKey: string;
  accountId: string;
}

/** The accounts and stocked pets a workload acts on; `tag` marks what it writes. */
export interface WorkloadSetup {
  tag: string;
  customers: Customer[];
  pets: { id: number; initialStock: number }[];
}

/** One request of the mix, with what is needed to find its trace in the databases. */
export type WorkloadRequest =
  | { kind: 'order'; accountId: string; petId: number; quantity: number }
  | { kind: 'message'; accountId: string; text: string }
  | { kind: 'signUp'; email: string }
  | { kind: 'read'; path: string };

/**
 * What came back: an HTTP answer, or none. `refused` means the connection was refused, so the
 * request cannot have reached anything; `hung` that the hang guard ran out. Any missing answer
 * but a refused connection leaves the request's effect unknown.
 */
export type Reply =
  | { answered: true; status: number; body: unknown }
  | { answered: false; refused: boolean; hung: boolean; reason: string };

export interface Outcome {
  request: WorkloadRequest;
  reply: Reply;
}

let workloads = 0;

/** As the admin, a category with `pets` pets of `stock` each; and `customers` new customers. */
export async function prepareWorkload(
  api: TestStack,
  { pets = 2, stock = 50, customers = 3 } = {},
): Promise<WorkloadSetup> {
  const tag = `wl${++workloads}x${Date.now()}`;
  const category = ok(
    await api.admin.categories.createCategory({
      body: { name: `${tag} pets` },
    }),
    201,
  );
  const setup: WorkloadSetup = { tag, customers: [], pets: [] };
  for (let i = 0; i < pets; i++) {
    const id = await petInStock(
      api.admin,
      category.body.id,
      stock,
      `${tag} pet ${i}`,
    );
    setup.pets.push({ id, initialStock: stock });
  }
  for (let i = 0; i < customers; i++) {
    const { apiKey, accountId } = await api.signUp(
      `${tag}.customer${i}@example.com`,
    );
    setup.customers.push({ apiKey, accountId });
  }
  return setup;
}

export interface WorkloadOptions {
  /** Requests in flight at once. */
  concurrency?: number;
  /** The hang guard of each request: past it, the request counts as unanswered. */
  guardMs: number;
  /** Each sender's pause between two requests, so a transition sees requests throughout. */
  paceMs?: number;
}

/** In every ten requests: four orders, two messages, one sign-up and three reads. */
const MIX = [
  'order',
  'message',
  'read',
  'order',
  'signUp',
  'order',
  'read',
  'message',
  'order',
  'read',
] as const;
const READS_PER_MIX = MIX.filter((kind) => kind === 'read').length;

/**
 * A bounded mix of writes and reads through the gateway, as several clients would send them,
 * keeping every outcome so that the ledgers can be checked against the databases afterwards.
 */
export class Workload {
  readonly outcomes: Outcome[] = [];
  readonly #url: string;
  readonly #setup: WorkloadSetup;
  readonly #concurrency: number;
  readonly #guardMs: number;
  readonly #paceMs: number;
  #sent = 0;

  constructor(url: string, setup: WorkloadSetup, options: WorkloadOptions) {
    this.#url = url;
    this.#setup = setup;
    this.#concurrency = options.concurrency ?? 8;
    this.#guardMs = options.guardMs;
    this.#paceMs = options.paceMs ?? 20;
  }

  get setup(): WorkloadSetup {
    return this.#setup;
  }

  /**
   * Sends at least `requests` requests while `transition` runs, and keeps sending until it is
   * over (but never more than `maxRequests`), so requests are in flight before, during and after
   * the change. Resolves when both are done.
   */
  async across(
    transition: () => Promise<unknown>,
    {
      requests = 40,
      maxRequests = 250,
    }: { requests?: number; maxRequests?: number } = {},
  ): Promise<void> {
    let over = false;
    const first = this.#sent;
    const changing = (async () => {
      try {
        await transition();
      } finally {
        over = true;
      }
    })();
    const sender = async () => {
      for (;;) {
        const sent = this.#sent - first;
        if (sent >= maxRequests || (sent >= requests && over)) return;
        await this.#send(this.#sent++);
        await sleep(this.#paceMs);
      }
    };
    const senders = Array.from({ length: this.#concurrency }, sender);
    await Promise.all([changing, ...senders]);
  }

  /** Sends `requests` requests with nothing else going on. */
  async run(requests: number): Promise<void> {
    await this.across(() => Promise.resolve(), {
      requests,
      maxRequests: requests,
    });
  }

  /**
   * The course of every outage test: requests before the fault, across `stop()` (which brings it
   * on), `during` requests while it lasts, across `start()` (which ends it), and after.
   */
  async throughOutage(
    fault: { stop(): Promise<unknown>; start(): Promise<unknown> },
    { during = 30 }: { during?: number } = {},
  ): Promise<void> {
    await this.run(20);
    await this.across(() => fault.stop());
    await this.run(during);
    await this.across(() => fault.start());
    await this.run(30);
  }

  /** How many outcomes of each kind got each status, for failure messages. */
  summary(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { request, reply } of this.outcomes) {
      const key = `${request.kind} ${reply.answered ? reply.status : reply.reason}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  #request(i: number): WorkloadRequest {
    const { tag, customers, pets } = this.#setup;
    const customer = customers[i % customers.length];
    const pet = pets[Math.floor(i / MIX.length) % pets.length];
    if (!customer || !pet)
      throw new Error('a workload needs customers and pets');
    const kind = MIX[i % MIX.length] ?? 'read';
    switch (kind) {
      case 'order':
        return {
          kind,
          accountId: customer.accountId,
          petId: pet.id,
          quantity: 1,
        };
      case 'message':
        return {
          kind,
          accountId: customer.accountId,
          text: `${tag} message ${i}`,
        };
      case 'signUp':
        return { kind, email: `${tag}.signup${i}@example.com` };
      case 'read': {
        const reads = [
          '/v1/pets?limit=5',
          `/v1/store/inventory/${pet.id}`,
          '/v1/store/orders?limit=5',
          '/v1/accounts/me',
        ];
        // The reads take turns, whatever the number of requests.
        const slot = i % MIX.length;
        const ordinal =
          Math.floor(i / MIX.length) * READS_PER_MIX +
          MIX.slice(0, slot).filter((each) => each === 'read').length;
        return { kind, path: reads[ordinal % reads.length] ?? '/v1/pets' };
      }
    }
  }

  async #send(i: number): Promise<void> {
    const request = this.#request(i);
    const apiKey =
      this.#setup.customers[i % this.#setup.customers.length]?.apiKey ?? '';
    const { method, path, ...options } = httpOf(request, apiKey);
    let reply: Reply;
    try {
      const answer = await callHttp(this.#url, method, path, {
        ...options,
        signal: AbortSignal.timeout(this.#guardMs),
      });
      reply = { answered: true, status: answer.status, body: answer.body };
    } catch (error) {
      reply = unanswered(error, this.#guardMs);
    }
    this.outcomes.push({ request, reply });
  }
}

/** The HTTP request that sends `request`, with the customer's `apiKey` where it needs one. */
function httpOf(
  request: WorkloadRequest,
  apiKey: string,
): HttpCallOptions & { method: string; path: string } {
  switch (request.kind) {
    case 'order':
      return {
        method: 'POST',
        path: '/v1/store/orders',
        apiKey,
        body: { petId: request.petId, quantity: request.quantity },
      };
    case 'message':
      return {
        method: 'POST',
        path: '/v1/messages',
        apiKey,
        body: { message: request.text },
      };
    case 'signUp':
      return {
        method: 'POST',
        path: '/v1/accounts',
        body: { email: request.email },
      };
    case 'read':
      return { method: 'GET', path: request.path, apiKey };
  }
}

function unanswered(error: unknown, guardMs: number): Reply {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return {
      answered: false,
      refused: false,
      hung: true,
      reason: `no answer within ${guardMs} ms`,
    };
  }
  const cause =
    error instanceof Error
      ? (error.cause as { code?: unknown } | undefined)
      : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : String(error);
  return {
    answered: false,
    refused: code === 'ECONNREFUSED',
    hung: false,
    reason: code,
  };
}
