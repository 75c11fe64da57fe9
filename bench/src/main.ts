import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { databaseCommands, startStack, type Stack } from '@petstore/stack';
import { startBenchServer, type BenchServer } from './bench-process.js';
import { commandsPerOperation } from './commands.js';
import { DATABASE_NAMES, restock, seed, subscribeToOrders, type Fixtures } from './fixtures.js';
import { startHangingReceiver } from './hanging-receiver.js';
import { measure, warmUp, type LoadOptions } from './load.js';
import { cpuBusyPercent, loadAverage, machine } from './machine.js';
import { runGrowth, spoiledLevel, type GrowthResult } from './growth.js';
import { formatSummary, summariseProfile, type CpuProfile } from './profile-summary.js';
import { stageShares } from './stage-costs.js';
import {
  evaluate,
  renderMarkdown,
  spoiled,
  type BenchResults,
  type ScenarioResult,
  type StageCosts,
} from './report.js';
import type { Database, ScenarioId } from './scenario-ids.js';
import {
  bareScenario,
  gatewayReadScenario,
  referenceScenarios,
  stackScenarios,
  webhookScenarios,
  type ReferenceUrls,
  type Scenario,
} from './scenarios.js';
import { startTraceSink } from './trace-sink.js';
import { renderWebhookLag, runWebhookLag, type WebhookLagResult } from './webhook-lag.js';

// `pnpm bench`: every scenario one after the other, on this machine, on the embedded database
// (mongod; the one `MONGODB_URI` names when it is set), then the store as it grows,
// (g), then the database commands per operation, then bench/results.md and bench/results.json.
// `--only=R1,b` runs some scenarios (`g` for the growth, `commands` for the command counts) and
// writes neither file. `--profile` runs one scenario (`--only`, default c) with one service
// (`--service`, default gateway) under `node --cpu-prof` and prints where that service spent its
// time.
const { values: args } = parseArgs({
  options: {
    profile: { type: 'boolean', default: false },
    service: { type: 'string', default: 'gateway' },
    only: { type: 'string' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
  },
});
const options: LoadOptions = {
  connections: Number(args.connections),
  warmupSeconds: Number(args.warmup),
  durationSeconds: Number(args.duration),
};
const benchDir = fileURLToPath(new URL('..', import.meta.url));
type Selectable = ScenarioId | 'g' | 'commands' | 'stages' | 'w';
const selected = new Set<Selectable>(
  (args.only?.split(',').map((id) => id.trim()) as Selectable[] | undefined) ??
    (args.profile
      ? ['c']
      : [
          'a',
          'R1',
          'R2',
          'RK',
          'RG',
          'RT',
          'b',
          'c',
          'd',
          'e',
          'h',
          'i',
          'j',
          'w',
          'stages',
          'g',
          'commands',
        ]),
);
/** The database every stack runs on. */
const database: Database = process.env.MONGODB_URI ? 'MONGODB_URI' : 'mongod';
const SERVICES = ['gateway', 'pets', 'store'] as const;
type ServiceName = (typeof SERVICES)[number];
function profiledService(name: string): ServiceName {
  const found = SERVICES.find((service) => service === name);
  if (!found) throw new Error(`[bench] --service must be one of ${SERVICES.join(', ')}`);
  return found;
}

/** The services as `pnpm start` runs them, minus what would distort the numbers. */
const stackEnv = {
  MONGODB_URI: process.env.MONGODB_URI,
  // A line per request would measure the logger; warnings and errors still show.
  LOG_LEVEL: 'warn',
  // One key sends every request: its bucket must never be the bottleneck.
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
};

const cleanups: (() => Promise<void>)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/**
 * What the services log (warnings and errors only) goes to bench/logs/stack.log, not the terminal:
 * the end of each load run cuts requests in flight, which the gateway logs as 503s.
 */
const serviceLog = {
  lines: [] as string[],
  add(name: string, chunk: string) {
    for (const line of chunk.split('\n').filter(Boolean)) this.lines.push(`[${name}] ${line}`);
  },
  async save() {
    if (this.lines.length === 0) return;
    const dir = join(benchDir, 'logs');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'stack.log'), `${this.lines.join('\n')}\n`);
    log(`the services logged ${this.lines.length} lines at warn or above: bench/logs/stack.log`);
  },
};

async function runScenario(scenario: Scenario, onMeasuring?: () => void): Promise<ScenarioResult> {
  const name = `(${scenario.id})${scenario.database ? ` on ${scenario.database}` : ''}`;
  log(
    `${name} ${scenario.title}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured`,
  );
  const loadAverageBefore = loadAverage();
  const measurement = await measure(scenario.target, options, onMeasuring);
  const { id, title, database } = scenario;
  const result = { id, title, database, measurement, loadAverageBefore };
  const m = measurement;
  log(
    `${name} ${m.requestsPerSecond} req/s, p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms` +
      `; CPU µs per request: ${Object.entries(m.cpuMicrosPerRequest)
        .map(([role, us]) => `${role} ${us}`)
        .join(', ')}` +
      (spoiled(result)
        ? `, NOT all 2xx: ${JSON.stringify(m.statusCodes)}, ${m.errors} errors`
        : ''),
  );
  return result;
}

async function withStack<T>(
  nodeArgs: Parameters<typeof startStack>[0]['nodeArgs'],
  use: (stack: Stack) => Promise<T>,
  { env = {}, metrics = false }: { env?: Record<string, string>; metrics?: boolean } = {},
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  log('starting the stack (database, pets, store, gateway)');
  const stack = await startStack({
    dataDir,
    env: { ...stackEnv, ...env },
    metrics,
    nodeArgs,
    stdio: 'pipe',
    onOutput: (name, chunk) => serviceLog.add(name, chunk),
  });
  const stop = () => stack.stop();
  cleanups.push(stop);
  try {
    return await use(stack);
  } finally {
    cleanups.splice(cleanups.indexOf(stop), 1);
    await stop();
  }
}

interface ScenariosOptions {
  only?: Set<Selectable>;
  /** Node's own options for R1 and R2, e.g. to profile them. */
  referenceNodeArgs?: Partial<Record<'R1' | 'R2', string[]>>;
}

/**
 * The scenarios to run in `stack` on `database`, in order: the references asked for, on the
 * stack's pets database (R1, R2 in front of it, RK, RT; started here, stopped by `stop`), then
 * (b)–(e).
 */
async function scenariosOf(
  stack: Stack,
  fixtures: Fixtures,
  { only = selected, referenceNodeArgs = {} }: ScenariosOptions = {},
) {
  const servers: BenchServer[] = [];
  const stop = async () => {
    for (const server of servers.splice(0).reverse()) await server.stop();
  };
  cleanups.push(stop);
  const scenarios = stackScenarios(database, stack, fixtures);
  const urls: ReferenceUrls = {};
  const databaseArgs = [stack.database.uri, DATABASE_NAMES.pets];
  if (only.has('R1') || only.has('R2')) {
    const r1 = await startBenchServer('reference-find-one.js', databaseArgs, {
      nodeArgs: referenceNodeArgs.R1,
    });
    servers.push(r1);
    const { customer } = fixtures;
    const r2 = await startBenchServer(
      'reference-proxy.js',
      [r1.url, customer.apiKey, customer.accountId],
      { nodeArgs: referenceNodeArgs.R2 },
    );
    servers.push(r2);
    Object.assign(urls, { R1: r1.url, R2: r2.url });
  }
  if (only.has('RK') || only.has('RG')) {
    const rk = await startBenchServer('reference-koa.js', databaseArgs);
    servers.push(rk);
    urls.RK = rk.url;
    const { customer } = fixtures;
    const rg = await startBenchServer('reference-proxy.js', [
      rk.url,
      customer.apiKey,
      customer.accountId,
      'koa',
    ]);
    servers.push(rg);
    urls.RG = rg.url;
  }
  if (only.has('RT')) {
    const sink = await startTraceSink();
    servers.push({
      url: sink.url,
      stop: () => {
        log(`the trace sink received ${sink.received()} export requests from RT`);
        return sink.stop();
      },
    });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_on' };
    const rt = await startBenchServer('reference-find-one.js', [...databaseArgs, 'traced'], {
      env,
    });
    servers.push(rt);
    urls.RT = rt.url;
  }
  scenarios.unshift(...referenceScenarios(database, urls, fixtures));
  return { scenarios: scenarios.filter(({ id }) => only.has(id)), stop };
}

/**
 * Runs `scenarios` one after the other in `stack`, the database warmed up first and the pet
 * restocked before orders, then stops the servers `scenariosOf` started for them.
 */
async function runInTurn(
  stack: Stack,
  fixtures: Fixtures,
  { scenarios, stop }: Awaited<ReturnType<typeof scenariosOf>>,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  try {
    await warmDatabase(scenarios);
    for (const scenario of scenarios) {
      if (scenario.id === 'd') await restock(stack, fixtures.petId);
      results.push(await runScenario(scenario));
    }
  } finally {
    await stop();
  }
  return results;
}

/** R1, R2 and (b)–(e) in one stack: the references and the service side by side. */
function runOnStack(): Promise<ScenarioResult[]> {
  return withStack(undefined, async (stack) => {
    const fixtures = await seed(stack);
    return runInTurn(stack, fixtures, await scenariosOf(stack, fixtures));
  });
}

/** One scenario in a stack of its own, its database warmed up first. */
async function runAlone(
  scenarioIn: (stack: Stack, fixtures: Fixtures) => Scenario,
  stackOptions: Parameters<typeof withStack>[2],
): Promise<ScenarioResult> {
  return withStack(
    undefined,
    async (stack) => {
      const scenario = scenarioIn(stack, await seed(stack));
      // With metrics on, every process is scraped first, database gauges and all, as Prometheus
      // does at each interval: what a scrape leaves behind counts.
      if (stackOptions?.metrics) {
        for (const process of [stack.gateway, stack.pets, stack.store]) {
          await databaseCommands(process);
        }
      }
      await warmDatabase([scenario]);
      return runScenario(scenario);
    },
    stackOptions,
  );
}

async function runAll(): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  if (selected.has('a')) {
    const bare = await startBenchServer('bare-server.js');
    cleanups.push(() => bare.stop());
    try {
      results.push(await runScenario(bareScenario(bare.url)));
    } finally {
      await bare.stop();
    }
  }
  const onStack: ScenarioId[] = ['R1', 'R2', 'RK', 'RG', 'RT', 'b', 'c', 'd', 'e'];
  if (onStack.some((id) => selected.has(id))) results.push(...(await runOnStack()));
  if (selected.has('h')) {
    results.push(
      await runAlone((stack, fixtures) => gatewayReadScenario('h', database, stack, fixtures), {
        metrics: true,
      }),
    );
  }
  if (selected.has('i')) {
    const collector = await startTraceSink();
    cleanups.push(() => collector.stop());
    results.push(
      await runAlone((stack, fixtures) => gatewayReadScenario('i', database, stack, fixtures), {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_SAMPLER: 'always_on' },
      }),
    );
    log(`the trace sink received ${collector.received()} export requests`);
    await collector.stop();
  }
  if (selected.has('j')) results.push(...(await runWebhooks()));
  return results;
}

/**
 * (j0) then (j), each in a fresh stack: orders, then the same orders with an admin webhook on
 * `order.created` delivering to a receiver that never answers. Fresh stacks, because what an order
 * costs grows with the orders already in the database (see (g)), so a second run in the same
 * stack would be slower with or without a webhook. Fails unless deliveries were hanging while (j)
 * was measured: otherwise (j) measured no webhook at all.
 */
async function runWebhooks(): Promise<ScenarioResult[]> {
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  const withoutWebhook = await runAlone(
    (stack, fixtures) => webhookScenarios(database, stack, fixtures)[0],
    { env },
  );
  const receiver = await startHangingReceiver();
  cleanups.push(() => receiver.stop());
  const withWebhook = await withStack(
    undefined,
    async (stack) => {
      const [, hanging] = webhookScenarios(database, stack, await seed(stack));
      await warmDatabase([hanging]);
      await subscribeToOrders(stack, receiver.url);
      let measuredFrom = Number.NaN;
      const result = await runScenario(hanging, () => (measuredFrom = Date.now()));
      const webhookReceiver = {
        requests: receiver.requests(),
        hangingWhileMeasured: receiver.hangingBetween(measuredFrom, Date.now()),
      };
      return { ...result, webhookReceiver };
    },
    { env },
  );
  // The stack is stopped first: its gateway leaves the deliveries in flight to their leases.
  await receiver.stop();
  const { requests, hangingWhileMeasured } = withWebhook.webhookReceiver;
  log(
    `the hanging receiver took ${receiver.connections()} connections and ${requests} requests` +
      ` during (j), ${hangingWhileMeasured} of them hanging while it was measured`,
  );
  if (hangingWhileMeasured === 0) {
    throw new Error(
      '[bench] (j): no delivery reached the webhook receiver while orders were measured, so (j) measured no webhook',
    );
  }
  return [withoutWebhook, withWebhook];
}

/** (w): webhooks keeping up with orders, without a hanging receiver then with one. */
async function runWebhookLagScenario(): Promise<WebhookLagResult[] | undefined> {
  if (!selected.has('w')) return undefined;
  // Eleven sign-ups from one address.
  const env = {
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SIGNUP_RATE_LIMIT_PER_MINUTE: '1000',
    SIGNUP_RATE_LIMIT_BURST: '1000',
  };
  const results: WebhookLagResult[] = [];
  for (const withHangingReceiver of [false, true]) {
    const run = (stack: Stack) => runWebhookLag(stack, { withHangingReceiver });
    const result = await withStack(undefined, run, { env });
    log(`(w): ${result.orders} orders, lag p99 ${result.lagMs.p99} ms, ${result.missing} missing`);
    results.push(result);
  }
  return results;
}

/**
 * (g): the store as it grows, in a stack of its own started as `pnpm start` starts it (its
 * database keeping its data in a file in the stack's data folder, metrics on).
 */
async function runGrowthScenario(): Promise<GrowthResult | undefined> {
  if (!selected.has('g')) return undefined;
  return withStack(undefined, (stack) => runGrowth(stack, database, log), { metrics: true });
}

/** Load sent before a stack's first scenario, so that every scenario meets a warm database. */
const DATABASE_WARMUP_SECONDS = 10;

/**
 * A fresh stack is slower over its first seconds of load: the embedded mongod's cache is cold and
 * the services' hot paths are not compiled yet. Without this the first scenario of a stack would
 * measure a slower stack than the others.
 */
async function warmDatabase([first]: Scenario[]): Promise<void> {
  if (database !== 'mongod' || !first) return;
  log(`warming ${database} up for ${DATABASE_WARMUP_SECONDS} s`);
  await warmUp(first.target, options.connections, DATABASE_WARMUP_SECONDS);
}

/** The background jobs that look for work on a timer, made to look rarely; each is also woken. */
const QUIET_TIMERS = {
  MESSAGE_POLL_MS: '600000',
  STATUS_RECONCILE_MS: '3600000',
};

/** Database commands per request of (b)–(e), from the services' metrics. */
async function countCommands(): Promise<BenchResults['commands']> {
  if (!selected.has('commands')) return {};
  log(`counting database commands per operation on ${database}`);
  const counted = await withStack(
    undefined,
    async (stack) =>
      commandsPerOperation(stack, stackScenarios(database, stack, await seed(stack))),
    // Timers that poll whether or not anything happened would count as the requests' work.
    { env: QUIET_TIMERS, metrics: true },
  );
  return { [database]: counted };
}

const cpuProfileArgs = (dir: string, name: string) => [
  '--cpu-prof',
  `--cpu-prof-dir=${dir}`,
  `--cpu-prof-name=${name}.cpuprofile`,
];

/** The profile a process wrote as it exited. */
async function readProfile(dir: string, name: string) {
  const file = join(dir, `${name}.cpuprofile`);
  if (!(await readdir(dir)).includes(`${name}.cpuprofile`)) {
    throw new Error(`[bench] ${name} wrote no profile at ${file}`);
  }
  return { file, profile: JSON.parse(await readFile(file, 'utf8')) as CpuProfile };
}

/** Who is profiled for the stage table, and under which scenario its CPU per request is read. */
const STAGE_PROCESSES = [
  { process: 'R1', scenario: 'R1' },
  { process: 'pets', scenario: 'b' },
  { process: 'R2', scenario: 'R2' },
  { process: 'gateway', scenario: 'c' },
] as const;

/**
 * The stage table: R1, R2, (b) and (c) again in a stack of their own with R1, R2, pets and the
 * gateway under `node --cpu-prof`. A profile gives each stage's share of its process's busy time;
 * times the CPU µs per request the unprofiled run measured (`measured`), that is the stage's cost.
 */
async function measureStages(measured: ScenarioResult[]): Promise<StageCosts | undefined> {
  if (!selected.has('stages')) return undefined;
  const dir = join(
    benchDir,
    'profiles',
    `stages-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  );
  await mkdir(dir, { recursive: true });
  log(`profiling R1, R2, pets and the gateway for the stage table, into ${dir}`);
  const only = new Set<Selectable>(STAGE_PROCESSES.map(({ scenario }) => scenario));
  await withStack(
    { pets: cpuProfileArgs(dir, 'pets'), gateway: cpuProfileArgs(dir, 'gateway') },
    async (stack) => {
      const referenceNodeArgs = { R1: cpuProfileArgs(dir, 'R1'), R2: cpuProfileArgs(dir, 'R2') };
      const fixtures = await seed(stack);
      const started = await scenariosOf(stack, fixtures, { only, referenceNodeArgs });
      await runInTurn(stack, fixtures, started);
    },
  );
  const costs: StageCosts = [];
  for (const { process: name, scenario } of STAGE_PROCESSES) {
    const cpu = measured.find(({ id }) => id === scenario)?.measurement.cpuMicrosPerRequest[name];
    if (cpu === undefined) continue;
    const shares = stageShares((await readProfile(dir, name)).profile);
    costs.push({ process: name, scenario, cpuMicrosPerRequest: cpu, shares });
  }
  return costs;
}

/** Runs the selected stack scenarios with one service under `node --cpu-prof`, then sums it up. */
async function profileService(service: ServiceName): Promise<void> {
  const profileDir = join(benchDir, 'profiles');
  await mkdir(profileDir, { recursive: true });
  const name = `${service}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  // (i) profiles the gateway read with every request traced and exported.
  const traced = selected.has('i') ? await startTraceSink() : undefined;
  if (traced) cleanups.push(() => traced.stop());
  const env = traced && {
    OTEL_EXPORTER_OTLP_ENDPOINT: traced.url,
    OTEL_TRACES_SAMPLER: 'always_on',
  };
  await withStack(
    { [service]: cpuProfileArgs(profileDir, name) },
    async (stack) => {
      const fixtures = await seed(stack);
      const started = await scenariosOf(stack, fixtures);
      if (traced) started.scenarios.push(gatewayReadScenario('i', database, stack, fixtures));
      await runInTurn(stack, fixtures, started);
    },
    { env },
  );
  await traced?.stop();
  // The service writes its profile as it exits (withStack has stopped it).
  const { file, profile } = await readProfile(profileDir, name);
  const summary = formatSummary(summariseProfile(profile));
  await writeFile(join(profileDir, `${name}.txt`), summary);
  process.stdout.write(`\n${file}\n\n${summary}`);
}

async function main(): Promise<number> {
  const busyBeforePercent = await cpuBusyPercent();
  log(`machine: ${busyBeforePercent}% busy before the run, load average ${loadAverage()}`);
  if (args.profile) {
    await profileService(profiledService(args.service));
    return 0;
  }
  const scenarios = await runAll();
  const stages = await measureStages(scenarios);
  const webhooks = await runWebhookLagScenario();
  const growth = await runGrowthScenario();
  const commands = await countCommands();
  const results: BenchResults = {
    date: new Date().toISOString(),
    machine: machine(),
    busyBeforePercent,
    options,
    scenarios,
    ...evaluate(scenarios, options, { growth, stages, commands }),
    commands,
    stages,
    growth,
    webhooks,
  };
  const markdown = [renderMarkdown(results), webhooks && renderWebhookLag(webhooks)]
    .filter(Boolean)
    .join('\n');
  if (args.only === undefined) {
    // Measured once, not by this command: kept below every run's tables.
    const recordedOnce = await readFile(join(benchDir, 'node-20-vs-24.md'), 'utf8');
    await writeFile(join(benchDir, 'results.md'), `${markdown}\n${recordedOnce}`);
    await writeFile(join(benchDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    log('wrote bench/results.md and bench/results.json');
  }
  process.stdout.write(`\n${markdown}`);
  return scenarios.some(spoiled) || growth?.levels.some(spoiledLevel) ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  await cleanUp();
  await serviceLog.save();
}
