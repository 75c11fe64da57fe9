import type { Measurement } from './load.js';

// What `pnpm bench` measures, as data: the stacks, the scenarios run in them one after the other,
// and the goals. bench/README.md describes each row.

export interface StackSettings {
  env?: Record<string, string>;
  metrics?: boolean;
  /** Every request traced, and exported to the stack's trace sink (`tracedEnv`). */
  traced?: boolean;
}

/**
 * What turns tracing on, in the services and in RT, as the services read it: every request traced
 * and exported over OTLP/HTTP to the bench's trace sink at `sinkUrl`.
 */
export function tracedEnv(sinkUrl: string): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
    OTEL_TRACES_SAMPLER: 'always_on',
  };
}

/** Each stack is started fresh, as `pnpm start` starts it, for the scenarios naming it. */
export const STACKS = {
  // The bench's webhook receivers listen on 127.0.0.1.
  main: { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } },
  traced: { traced: true },
  growth: { metrics: true },
} satisfies Record<string, StackSettings>;
export type StackName = keyof typeof STACKS;

/**
 * Where the requests go: a reference server of the bench's own (R1, R2, RK, RG, RT, on the stack's
 * pets database), the pets service directly, or the gateway.
 */
export type Target = 'R1' | 'R2' | 'RK' | 'RG' | 'RT' | 'pets' | 'gateway';

/** One request, sent again and again; `{petId}` stands for the fixtures' pet. */
export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface Scenario {
  id: string;
  title: string;
  stack: StackName;
  target: Target;
  request: Request;
  /** Before the load, orders are placed until the stack's store holds at least this many. */
  storedOrders?: number;
  /** Admin webhooks on `order.created` subscribed before the load, at receivers of the bench. */
  webhooks?: ('answering' | 'hanging')[];
  /**
   * Before the load, another customer opens this many connections to the gateway, each sending an
   * order's headers and the first byte of its body, and keeps them open until the load ends.
   */
  slowBodies?: number;
}

const READ: Request = { method: 'GET', path: '/v2/pets/{petId}' };
export const ORDER: Request = {
  method: 'POST',
  path: '/v2/store/orders',
  body: '{"petId":{petId},"quantity":1}',
};
const MESSAGE: Request = {
  method: 'POST',
  path: '/v2/messages',
  body: '{"message":"Hello"}',
};
const LIST_ORDERS: Request = {
  method: 'GET',
  path: '/v2/store/orders?limit=20',
};
const STOCK: Request = { method: 'GET', path: '/v2/store/inventory/{petId}' };
/** More than the gateway's pool to a service holds, and than an account's requests in flight. */
const SLOW_BODIES = 130;

/** A level of the store's growth: orders, then a page of them, once it holds `orders`. */
function growth(orders: number, label: string): Scenario[] {
  const level = {
    stack: 'growth',
    target: 'gateway',
    storedOrders: orders,
  } as const;
  const stored = `${label} orders stored`;
  return [
    { ...level, id: `g${label}`, title: `orders, ${stored}`, request: ORDER },
    {
      ...level,
      id: `g${label}-list`,
      title: `a page of orders, ${stored}`,
      request: LIST_ORDERS,
    },
  ];
}

/** A scenario of the main stack, where the references and the services run side by side. */
const main = (
  id: string,
  target: Target,
  request: Request,
  title: string,
): Scenario => ({
  id,
  title,
  stack: 'main',
  target,
  request,
});

export const SCENARIOS: Scenario[] = [
  main('R1', 'R1', READ, '`node:http` + the driver’s `findOne`'),
  main('RK', 'RK', READ, 'Koa + the driver’s `findOne`'),
  main('RT', 'RT', READ, 'R1, every request traced and exported over OTLP'),
  main('R2', 'R2', READ, '`node:http` + key lookup + undici `Pool` → R1'),
  main('RG', 'RG', READ, 'Koa + key lookup + undici `Pool` → RK'),
  main('b', 'pets', READ, 'a pet read, pets service directly'),
  main('c', 'gateway', READ, 'a pet read through the gateway'),
  {
    ...main(
      's',
      'gateway',
      STOCK,
      `a stock read through the gateway while another customer’s ${SLOW_BODIES} order bodies hang`,
    ),
    slowBodies: SLOW_BODIES,
  },
  main('d', 'gateway', ORDER, 'orders through the gateway'),
  main('e', 'gateway', MESSAGE, 'messages through the gateway'),
  {
    ...main(
      'w',
      'gateway',
      ORDER,
      '(d) with a webhook answering 204 and one never answering',
    ),
    webhooks: ['answering', 'hanging'],
  },
  {
    id: 'i',
    title: '(c), every request traced and exported over OTLP',
    stack: 'traced',
    target: 'gateway',
    request: READ,
  },
  ...growth(1_000, '1k'),
  ...growth(10_000, '10k'),
  ...growth(50_000, '50k'),
];

/** A figure of a scenario's measurement. */
export type Metric = Exclude<keyof Measurement, 'requests' | 'errors'>;

/** A figure of a scenario over the same of another. */
export interface Ratio {
  scenario: string;
  over: string;
}

/**
 * A figure the run reports: `metric` of `scenario`, divided by the same of `over` when given;
 * a goal when it has a bound. A ratio's lower bound may be another ratio of the same run.
 */
export interface Goal {
  scenario: string;
  over?: string;
  metric: Metric;
  atLeast?: number | Ratio;
  atMost?: number;
}

/** The scenarios a goal's figure and its bound are taken from. */
export function scenariosOf({ scenario, over, atLeast }: Goal): string[] {
  const ids = [scenario];
  if (over !== undefined) ids.push(over);
  if (typeof atLeast === 'object') ids.push(atLeast.scenario, atLeast.over);
  return ids;
}

const ratio = (
  scenario: string,
  over: string,
  atLeast?: number | Ratio,
): Goal => ({
  scenario,
  over,
  metric: 'requestsPerSecond',
  atLeast,
});

export const GOALS: Goal[] = [
  ratio('b', 'R1'),
  ratio('b', 'RK', 0.85),
  ratio('c', 'R2'),
  ratio('c', 'RG', 0.85),
  ratio('c', 'b', 0.6),
  ratio('d', 'R1', 0.2),
  { scenario: 'c', metric: 'p99Ms', atMost: 25 },
  ratio('RT', 'R1'),
  ratio('i', 'c', { scenario: 'RT', over: 'R1' }),
  { scenario: 's', metric: 'p50Ms', atMost: 300 },
  { scenario: 's', metric: 'non2xx', atMost: 0 },
  { scenario: 'd', metric: 'p99Ms' },
  ratio('w', 'd', 0.9),
  { scenario: 'w', metric: 'missing', atMost: 0 },
  { scenario: 'w', metric: 'lagP99Ms', atMost: 2_000 },
  // The orders/s the store reached on the Java imitation of MongoDB it ran on before, at about
  // 4 000 stored orders, measured on this kind of machine before the imitation was deleted.
  { scenario: 'g10k', metric: 'requestsPerSecond', atLeast: 236 },
  ratio('g50k', 'g1k', 0.8),
  ratio('g50k-list', 'g1k-list', 0.8),
];
