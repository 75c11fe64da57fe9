import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createPetstoreClient,
  WebhookEventTypeSchema,
  type WebhookEventType,
} from '@petstore/contract';
import type { Stack } from '@petstore/stack';
import { seed } from './fixtures.js';
import { startHangingReceiver } from './hanging-receiver.js';

/** (w): what a webhook receiver sees while the stack takes orders as fast as it can. */
export interface WebhookLagResult {
  /** Whether an admin webhook on every event delivered to a receiver that never answers. */
  withHangingReceiver: boolean;
  customers: number;
  loadSeconds: number;
  orders: number;
  ordersPerSecond: number;
  /** Deliveries the fast receivers took per second while orders were placed. */
  deliveriesPerSecond: number;
  /** From the end of the load until the last order's `order.created` arrived. */
  drainSeconds: number;
  /** From each 201 to its `order.created` at the all-events receiver. */
  lagMs: { p50: number; p95: number; p99: number; max: number };
  /** Orders whose `order.created` had not arrived when the drain's time ran out. */
  missing: number;
  /** Deliveries the hanging receiver was left waiting on. */
  hanging: number;
}

const CUSTOMERS = 8;
const LOAD_SECONDS = 30;
const DRAIN_LIMIT_MS = 120_000;
const ALL_EVENTS = WebhookEventTypeSchema.options;

/** A receiver answering 204 at once: `/all` and `/customer/<n>`; when each order's event came. */
async function startFastReceiver() {
  const arrivals = new Map<number, number>();
  let deliveries = 0;
  let allArrived = (): void => {};
  let expected = Number.POSITIVE_INFINITY;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      deliveries++;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        data: { id?: number };
      };
      if (req.url !== '/all' || event.type !== 'order.created' || event.data.id === undefined) {
        return;
      }
      if (!arrivals.has(event.data.id)) arrivals.set(event.data.id, Date.now());
      if (arrivals.size >= expected) allArrived();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    deliveries: () => deliveries,
    /** Resolves once `count` orders' events arrived, or when `limitMs` has passed. */
    arrivedOrTimedOut(count: number, limitMs: number): Promise<void> {
      expected = count;
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, limitMs);
        allArrived = () => {
          clearTimeout(timer);
          resolve();
        };
        if (arrivals.size >= count) allArrived();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * (w): an admin webhook on every event at a fast receiver, another at a receiver that hangs when
 * `withHangingReceiver`, and ten customers' webhooks on `order.created` at fast receivers; eight of
 * those customers order as fast as they can for 30 s. Then waits for every order's
 * `order.created` (2 min at most).
 */
export async function runWebhookLag(
  stack: Stack,
  { withHangingReceiver }: { withHangingReceiver: boolean },
): Promise<WebhookLagResult> {
  const { petId } = await seed(stack);
  const fast = await startFastReceiver();
  const hanging = await startHangingReceiver();
  try {
    const admin = createPetstoreClient({ baseUrl: stack.url, apiKey: stack.adminApiKey });
    const subscribe = async (client: typeof admin, url: string, events: WebhookEventType[]) => {
      const made = await client.webhooks.createWebhook({ body: { url, events } });
      if (made.status !== 201)
        throw new Error(`[bench] (w): a webhook was refused: ${made.status}`);
    };
    await subscribe(admin, `${fast.url}/all`, ALL_EVENTS);
    if (withHangingReceiver) await subscribe(admin, hanging.url, ALL_EVENTS);
    const keys: string[] = [];
    for (let index = 0; index < 10; index++) {
      const signUp = await createPetstoreClient({ baseUrl: stack.url }).accounts.createAccount({
        body: { email: `bench.hooks.${Date.now()}.${index}@example.com`, name: 'Bench' },
      });
      if (signUp.status !== 201)
        throw new Error(`[bench] (w): sign-up was refused: ${signUp.status}`);
      const customer = createPetstoreClient({ baseUrl: stack.url, apiKey: signUp.body.apiKey });
      await subscribe(customer, `${fast.url}/customer/${index}`, ['order.created']);
      keys.push(signUp.body.apiKey);
    }

    const answeredAt = new Map<number, number>();
    const started = Date.now();
    const loadEnds = started + LOAD_SECONDS * 1000;
    const order = async (apiKey: string) => {
      while (Date.now() < loadEnds) {
        const res = await fetch(`${stack.url}/v1/store/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ petId, quantity: 1 }),
        });
        const body = (await res.json()) as { id: number };
        if (res.status === 201) answeredAt.set(body.id, Date.now());
      }
    };
    await Promise.all(keys.slice(0, CUSTOMERS).map(order));
    const ended = Date.now();
    const deliveriesDuringLoad = fast.deliveries();
    await fast.arrivedOrTimedOut(answeredAt.size, DRAIN_LIMIT_MS);
    const lags = [...answeredAt].flatMap(([id, at]) => {
      const arrived = fast.arrivals.get(id);
      return arrived === undefined ? [] : [Math.max(0, arrived - at)];
    });
    lags.sort((a, b) => a - b);
    const lastArrival = Math.max(...fast.arrivals.values());
    return {
      withHangingReceiver,
      customers: CUSTOMERS,
      loadSeconds: LOAD_SECONDS,
      orders: answeredAt.size,
      ordersPerSecond: answeredAt.size / ((ended - started) / 1000),
      deliveriesPerSecond: deliveriesDuringLoad / ((ended - started) / 1000),
      drainSeconds: Math.max(0, (lastArrival - ended) / 1000),
      lagMs: {
        p50: percentile(lags, 0.5),
        p95: percentile(lags, 0.95),
        p99: percentile(lags, 0.99),
        max: lags.at(-1) ?? Number.NaN,
      },
      missing: answeredAt.size - lags.length,
      hanging: hanging.requests(),
    };
  } finally {
    await hanging.stop();
    await fast.stop();
  }
}

function row(result: WebhookLagResult): string {
  const { lagMs } = result;
  return [
    result.withHangingReceiver ? 'with' : 'without',
    result.orders,
    result.ordersPerSecond.toFixed(0),
    result.deliveriesPerSecond.toFixed(0),
    `${result.drainSeconds.toFixed(1)} s`,
    `${lagMs.p50} ms`,
    `${lagMs.p95} ms`,
    `${lagMs.p99} ms`,
    `${lagMs.max} ms`,
    result.missing,
    result.hanging,
  ].join(' | ');
}

/** (w)'s section of bench/results.md: a run without the hanging receiver, then one with it. */
export function renderWebhookLag(results: WebhookLagResult[]): string {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const missing = results.reduce((sum, result) => sum + result.missing, 0);
  const worstP99 = Math.max(...results.map(({ lagMs }) => lagMs.p99));
  return [
    '(w) webhooks keeping up, each run in a stack of its own: an admin webhook on every event at a',
    'receiver answering 204 at once, ten customers’ webhooks on `order.created`, and in the second',
    'run an admin webhook on every event at a receiver that never answers; 8 of the customers',
    'order as fast as they can for 30 s. The lag is from each 201 to its `order.created` at the',
    'all-events receiver.',
    '',
    '| Hanging receiver | Orders | Orders/s | Deliveries/s during the load | Drain after the load | Lag p50 | p95 | p99 | max | Missing | Hanging requests |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map((result) => `| ${row(result)} |`),
    '',
    '| Goal | Target | Measured | |',
    '| --- | --- | --- | --- |',
    `| every \`order.created\` arrives | 0 missing | ${missing} | ${met(missing === 0)} |`,
    `| lag p99 at the stack's full order rate, with a hanging receiver or not | ≤ 2,000 ms | ${worstP99} ms | ${met(worstP99 <= 2000)} |`,
    '',
  ].join('\n');
}
