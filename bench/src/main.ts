import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startStack, type Stack } from '@petstore/stack';
import { startBareServer } from './bare-server-process.js';
import { restock, seed } from './fixtures.js';
import { measure, type LoadOptions } from './load.js';
import { cpuBusyPercent, loadAverage, machine } from './machine.js';
import { formatSummary, summariseProfile, type CpuProfile } from './profile-summary.js';
import {
  evaluate,
  renderMarkdown,
  spoiled,
  type BenchResults,
  type ScenarioId,
  type ScenarioResult,
} from './report.js';
import {
  bareScenario,
  rateLimitScenario,
  stackScenarios,
  telemetryScenario,
  type Scenario,
} from './scenarios.js';
import { startTraceSink } from './trace-sink.js';

// `pnpm bench`: scenarios (a)–(e) one after the other, on this machine, then bench/results.md
// and bench/results.json. `--only=b,c` runs some scenarios and writes neither. `--profile` runs
// one scenario (`--only`, default c) with one service (`--service`, default gateway) under
// `node --cpu-prof` and prints where that service spent its time.
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
const selected = new Set<ScenarioId>(
  (args.only?.split(',').map((id) => id.trim()) as ScenarioId[] | undefined) ??
    (args.profile ? ['c'] : ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']),
);
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

async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  log(
    `(${scenario.id}) ${scenario.title}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured`,
  );
  const loadAverageBefore = loadAverage();
  const measurement = await measure(scenario.target, options);
  const result = { id: scenario.id, title: scenario.title, measurement, loadAverageBefore };
  const m = measurement;
  log(
    `(${scenario.id}) ${m.requestsPerSecond} req/s, p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms` +
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

async function runAll(): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  if (selected.has('a')) {
    const bare = await startBareServer();
    cleanups.push(() => bare.stop());
    try {
      results.push(await runScenario(bareScenario(bare.url)));
    } finally {
      await bare.stop();
    }
  }
  if ([...selected].some((id) => ['b', 'c', 'd', 'e'].includes(id))) {
    await withStack(undefined, async (stack) => {
      const fixtures = await seed(stack);
      for (const scenario of stackScenarios(stack, fixtures)) {
        if (!selected.has(scenario.id)) continue;
        if (scenario.id === 'd') await restock(stack, fixtures.petId);
        results.push(await runScenario(scenario));
      }
    });
  }
  for (const [id, policy] of [
    ['f', 'local'],
    ['g', 'cluster'],
  ] as const) {
    if (!selected.has(id)) continue;
    await withStack(
      undefined,
      async (stack) => {
        results.push(await runScenario(rateLimitScenario(id, stack, await seed(stack))));
      },
      { env: { EMBEDDED_DATABASE: 'mongo-java-server', RATE_LIMIT_POLICY: policy } },
    );
  }
  if (selected.has('h')) {
    await withStack(
      undefined,
      async (stack) => {
        results.push(await runScenario(telemetryScenario('h', stack, await seed(stack))));
      },
      { metrics: true },
    );
  }
  if (selected.has('i')) {
    const collector = await startTraceSink();
    cleanups.push(() => collector.stop());
    await withStack(
      undefined,
      async (stack) => {
        results.push(await runScenario(telemetryScenario('i', stack, await seed(stack))));
      },
      { env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_SAMPLER: 'always_on' } },
    );
    log(`the trace sink received ${collector.received()} export requests`);
    await collector.stop();
  }
  return results;
}

/** Runs the selected stack scenarios with one service under `node --cpu-prof`, then sums it up. */
async function profileService(service: ServiceName): Promise<void> {
  const profileDir = join(benchDir, 'profiles');
  await mkdir(profileDir, { recursive: true });
  const name = `${service}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await withStack(
    {
      [service]: [
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir}`,
        `--cpu-prof-name=${name}.cpuprofile`,
      ],
    },
    async (stack) => {
      const fixtures = await seed(stack);
      for (const scenario of stackScenarios(stack, fixtures)) {
        if (selected.has(scenario.id)) await runScenario(scenario);
      }
    },
  );
  // The service writes its profile as it exits (withStack has stopped it).
  const file = join(profileDir, `${name}.cpuprofile`);
  if (!(await readdir(profileDir)).includes(`${name}.cpuprofile`)) {
    throw new Error(`[bench] ${service} wrote no profile at ${file}`);
  }
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
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
  const results: BenchResults = {
    date: new Date().toISOString(),
    machine: machine(),
    busyBeforePercent,
    options,
    scenarios,
    ...evaluate(scenarios, options),
  };
  const markdown = renderMarkdown(results);
  if (args.only === undefined) {
    await writeFile(join(benchDir, 'results.md'), markdown);
    await writeFile(join(benchDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    log('wrote bench/results.md and bench/results.json');
  }
  process.stdout.write(`\n${markdown}`);
  return scenarios.some(spoiled) ? 1 : 0;
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
