import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { internalHeaders } from '@petstore/service-kit';
import { startStack, type Stack } from '@petstore/stack';
import { seed, subscribeToOrders, type Fixtures } from './fixtures.js';
import { send, type Measurement, type Sent } from './load.js';
import { startReceiver, type Receiver } from './receiver.js';
import { startReferences } from './references.js';
import { openSlowBodies, type SlowBodies } from './slow-bodies.js';
import { startTraceSink } from './trace-sink.js';
import {
  ORDER,
  STACKS,
  tracedEnv,
  type Scenario,
  type StackSettings,
  type StackName,
  type Target,
} from './scenarios.js';

export interface BenchOptions {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** When given, a scenario's measured load ends once this many requests were answered. */
  amount?: number;
  /** Load sent before a stack's first scenario: a fresh mongod and fresh services are slower. */
  stackWarmupSeconds: number;
  /** What the growth scenarios' stored orders are multiplied by (less in the quick mode). */
  ordersScale: number;
  log: (line: string) => void;
  /** What the services print (warnings and errors). */
  onOutput: (service: string, chunk: string) => void;
}

export interface ScenarioResult {
  id: string;
  title: string;
  stack: StackName;
  /** The 1-minute load average just before the scenario: how busy the machine was. */
  loadAverageBefore: number;
  measurement: Measurement;
}

/** The services as `pnpm start` runs them, minus what would distort the numbers. */
const STACK_ENV = {
  MONGODB_URI: process.env.MONGODB_URI,
  // A line per request would measure the logger.
  LOG_LEVEL: 'warn',
  // One key sends every request: its bucket must never be the bottleneck.
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
};
/** The longest the orders filling the store up to a growth level may take. */
const FILL_SECONDS = 600;
/** The longest the webhook scenario waits for its events after the load. */
const DRAIN_MS = 60_000;

/** Runs `scenarios` in order, each stack's in a fresh stack stopped after its last one. */
export async function runBench(
  scenarios: Scenario[],
  options: BenchOptions,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const name of Object.keys(STACKS) as StackName[]) {
    const own = scenarios.filter(({ stack }) => stack === name);
    if (own.length === 0) continue;
    const dataDir = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
    options.log(`starting the ${name} stack (mongod, pets, store, gateway)`);
    const { env = {}, metrics, traced = false }: StackSettings = STACKS[name];
    // Where the traced processes of the stack export: RT's, and the services' in a traced stack.
    const sink = await startTraceSink();
    try {
      const tracing = tracedEnv(sink.url);
      const stack = await startStack({
        dataDir,
        env: { ...STACK_ENV, ...env, ...(traced ? tracing : {}) },
        metrics,
        stdio: 'pipe',
        onOutput: options.onOutput,
      });
      try {
        results.push(...(await runInStack(stack, own, tracing, options)));
      } finally {
        await stack.stop();
      }
      options.log(`the trace sink received ${sink.received()} exports`);
    } finally {
      await sink.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  return results;
}

async function runInStack(
  stack: Stack,
  scenarios: Scenario[],
  traced: Record<string, string>,
  options: BenchOptions,
) {
  const fixtures = await seed(stack);
  const references = await startReferences(
    stack,
    fixtures,
    new Set(scenarios.map((s) => s.target)),
    traced,
  );
  const results: ScenarioResult[] = [];
  let storedOrders = 0;
  try {
    for (const [index, scenario] of scenarios.entries()) {
      const sent = sentTo(scenario, stack, fixtures, references.urls);
      const fill =
        Math.round((scenario.storedOrders ?? 0) * options.ordersScale) -
        storedOrders;
      if (fill > 0) {
        options.log(
          `placing ${fill} orders, up to ${storedOrders + fill} stored`,
        );
        const order = sentTo(
          { ...scenario, request: ORDER },
          stack,
          fixtures,
          references.urls,
        );
        const load = {
          connections: options.connections,
          seconds: FILL_SECONDS,
          amount: fill,
        };
        storedOrders += answered(await send(order, load));
      }
      const warmup =
        options.warmupSeconds + (index === 0 ? options.stackWarmupSeconds : 0);
      options.log(
        `(${scenario.id}) ${scenario.title}: ${warmup} s warm-up, ${options.seconds} s`,
      );
      const result = await measure(scenario, sent, stack, fixtures, {
        ...options,
        warmupSeconds: warmup,
      });
      if (scenario.request === ORDER)
        storedOrders += answered(result.measurement);
      const { requestsPerSecond, p50Ms, p99Ms, non2xx } = result.measurement;
      options.log(
        `(${scenario.id}) ${requestsPerSecond}/s, p50 ${p50Ms}, p99 ${p99Ms} ms, ${non2xx} not 2xx`,
      );
      results.push(result);
    }
  } finally {
    await references.stop();
  }
  return results;
}

/** Orders a measurement stored: its 2xx answers. */
const answered = ({ requests, non2xx }: Measurement) => requests - non2xx;

/**
 * Warms the scenario up, then measures it; with webhooks, also how their deliveries kept up; with
 * slow bodies, what they were answered (in the title).
 */
async function measure(
  { id, title, stack: stackName, webhooks = [], slowBodies = 0 }: Scenario,
  sent: Sent,
  stack: Stack,
  { otherCustomer }: Fixtures,
  { connections, warmupSeconds, seconds, amount }: BenchOptions,
): Promise<ScenarioResult> {
  const receivers = await Promise.all(
    webhooks.map((kind) => startReceiver({ answers: kind === 'answering' })),
  );
  let slow: SlowBodies | undefined;
  try {
    if (slowBodies > 0)
      slow = await openSlowBodies(stack.url, otherCustomer.apiKey, slowBodies);
    for (const receiver of receivers)
      await subscribeToOrders(stack, receiver.url);
    const answeredAt = new Map<number, number>();
    const onAnswer = (status: number, body: string) => {
      if (status === 201)
        answeredAt.set((JSON.parse(body) as { id: number }).id, Date.now());
    };
    const listen = receivers.length > 0 ? onAnswer : undefined;
    const started = Date.now();
    if (warmupSeconds > 0)
      await send(sent, { connections, seconds: warmupSeconds }, listen);
    const loadAverageBefore = Math.round((loadavg()[0] ?? 0) * 100) / 100;
    const measured = await send(sent, { connections, seconds, amount }, listen);
    const answering = receivers[webhooks.indexOf('answering')];
    const delivered =
      answering && (await deliveries(answering, answeredAt, started));
    const measurement = { ...measured, ...delivered };
    const titled = slow ? `${title}; ${slow.summary()}` : title;
    return {
      id,
      title: titled,
      stack: stackName,
      loadAverageBefore,
      measurement,
    };
  } finally {
    slow?.stop();
    for (const receiver of receivers) await receiver.stop();
  }
}

/** Waits for every answered order's event at `receiver`, then how fast and late they came. */
async function deliveries(
  receiver: Receiver,
  answeredAt: Map<number, number>,
  started: number,
) {
  await receiver.arrived([...answeredAt.keys()], DRAIN_MS);
  const arrivals = [...answeredAt].flatMap(([id, at]) => {
    const arrived = receiver.arrivals.get(id);
    return arrived === undefined ? [] : [{ at, arrived }];
  });
  const lags = arrivals
    .map(({ at, arrived }) => arrived - at)
    .sort((a, b) => a - b);
  const percentile = (share: number) =>
    lags[Math.ceil(share * lags.length) - 1] ?? 0;
  const lastArrival = Math.max(
    started + 1,
    ...arrivals.map(({ arrived }) => arrived),
  );
  return {
    deliveriesPerSecond: Math.round(
      (lags.length * 1000) / (lastArrival - started),
    ),
    lagP50Ms: percentile(0.5),
    lagP99Ms: percentile(0.99),
    missing: answeredAt.size - lags.length,
  };
}

/** The scenario's request, sent to its target with the customer's key. */
function sentTo(
  { target, request }: Pick<Scenario, 'target' | 'request'>,
  stack: Stack,
  fixtures: Fixtures,
  references: Partial<Record<Target, string>>,
): Sent {
  const withPet = (text: string) =>
    text.replaceAll('{petId}', String(fixtures.petId));
  const bases = { ...references, pets: stack.pets.url, gateway: stack.url };
  const headers: Record<string, string> = {
    authorization: `Bearer ${fixtures.customer.apiKey}`,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (target === 'pets') {
    // What the gateway sends along with every request it forwards.
    headers[internalHeaders.token] = stack.internalToken;
    headers[internalHeaders.accountId] = fixtures.customer.accountId;
    headers[internalHeaders.role] = 'customer';
    headers[internalHeaders.requestId] = 'bench';
  }
  return {
    url: `${bases[target]}${withPet(request.path)}`,
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : withPet(request.body),
  };
}
