import type { LoadOptions, Measurement } from './load.js';

export type ScenarioId = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i';

export interface ScenarioResult {
  id: ScenarioId;
  /** What is measured, e.g. `GET /v1/pets/{petId} through the gateway`. */
  title: string;
  measurement: Measurement;
  /** The 1-minute load average just before the scenario: how busy the machine was. */
  loadAverageBefore: number;
}

export interface Goal {
  name: string;
  target: string;
  actual: string;
  met: boolean;
}

export interface BenchResults {
  date: string;
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  /** CPU time used by other processes in the second before the run, in percent of all cores. */
  busyBeforePercent: number;
  options: LoadOptions;
  scenarios: ScenarioResult[];
  ratios: { gatewayOverService: number | null; serviceOverBare: number | null };
  goals: Goal[];
}

/** The gateway may cost at most this share of the service's throughput: (c)/(b) ≥ 0.6. */
export const MIN_GATEWAY_RATIO = 0.6;
/** The gateway's p99 at 32 connections. */
export const MAX_GATEWAY_P99_MS = 25;

const round2 = (value: number) => Math.round(value * 100) / 100;

function ratio(scenarios: ScenarioResult[], over: ScenarioId, under: ScenarioId): number | null {
  const top = scenarios.find(({ id }) => id === over)?.measurement.requestsPerSecond;
  const bottom = scenarios.find(({ id }) => id === under)?.measurement.requestsPerSecond;
  if (top === undefined || bottom === undefined || bottom === 0) return null;
  return round2(top / bottom);
}

/** The ratios (c)/(b) and (b)/(a), and whether the goals are met. */
export function evaluate(
  scenarios: ScenarioResult[],
  { connections }: Pick<LoadOptions, 'connections'>,
): Pick<BenchResults, 'ratios' | 'goals'> {
  const gatewayOverService = ratio(scenarios, 'c', 'b');
  const serviceOverBare = ratio(scenarios, 'b', 'a');
  const gateway = scenarios.find(({ id }) => id === 'c');
  const service = scenarios.find(({ id }) => id === 'b');
  const clean = (scenario?: ScenarioResult) => scenario !== undefined && !spoiled(scenario);
  const goals: Goal[] = [
    {
      name: 'gateway throughput / pets service throughput, (c)/(b)',
      target: `≥ ${MIN_GATEWAY_RATIO}`,
      actual: gatewayOverService === null ? 'not measured' : String(gatewayOverService),
      met:
        gatewayOverService !== null &&
        gatewayOverService >= MIN_GATEWAY_RATIO &&
        clean(gateway) &&
        clean(service),
    },
    {
      name: `p99 latency through the gateway, (c), at ${connections} connections`,
      target: `≤ ${MAX_GATEWAY_P99_MS} ms`,
      actual: gateway === undefined ? 'not measured' : `${gateway.measurement.latencyMs.p99} ms`,
      met:
        gateway !== undefined &&
        clean(gateway) &&
        gateway.measurement.latencyMs.p99 <= MAX_GATEWAY_P99_MS,
    },
  ];
  return { ratios: { gatewayOverService, serviceOverBare }, goals };
}

/** A scenario whose answers were not all 2xx measured something else than it says. */
export function spoiled({ measurement }: ScenarioResult): boolean {
  return measurement.non2xx > 0 || measurement.errors > 0;
}

function statusSummary({ measurement }: ScenarioResult): string {
  if (measurement.non2xx === 0 && measurement.errors === 0) return 'all 2xx';
  const codes = Object.entries(measurement.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${count}× ${code}`);
  if (measurement.errors > 0) codes.push(`${measurement.errors} connection errors`);
  return codes.join(', ');
}

/** What counting requests in the database, (g), costs next to counting them in memory, (f). */
function rateLimitCost(scenarios: ScenarioResult[]): string[] {
  const ratio = (key: 'requestsPerSecond') => {
    const local = scenarios.find(({ id }) => id === 'f')?.measurement[key];
    const cluster = scenarios.find(({ id }) => id === 'g')?.measurement[key];
    return local && cluster !== undefined ? round2(cluster / local) : undefined;
  };
  const kept = ratio('requestsPerSecond');
  if (kept === undefined) return [];
  return [
    `Rate limits shared through the database: (g)/(f) = **${kept}** of the throughput with limits`,
    'counted in memory, on the same database (one more database command per request).',
    '',
  ];
}

/** What metrics, (h), and always-on tracing, (i), cost next to neither, (c). */
function telemetryCost(scenarios: ScenarioResult[]): string[] {
  const over = (id: ScenarioId) => ratio(scenarios, id, 'c');
  const metrics = over('h');
  const tracing = over('i');
  if (metrics === null && tracing === null) return [];
  const show = (value: number | null) => (value === null ? 'not measured' : `**${value}**`);
  return [
    `Telemetry: with metrics on, the gateway read keeps ${show(metrics)} of its throughput without`,
    `telemetry, (h)/(c); with every request traced and exported, ${show(tracing)}, (i)/(c).`,
    '',
  ];
}

/** `bench/results.md`: the table, the ratios, the goals and how quiet the machine was. */
export function renderMarkdown(results: BenchResults): string {
  const { machine, options } = results;
  const rows = results.scenarios.map((scenario) => {
    const { measurement: m } = scenario;
    return `| (${scenario.id}) | ${scenario.title} | ${m.requestsPerSecond} | ${m.latencyMs.p50} | ${m.latencyMs.p99} | ${m.requests} | ${statusSummary(scenario)} | ${scenario.loadAverageBefore.toFixed(2)} |`;
  });
  const roles = ['bare server', 'gateway', 'pets', 'store', 'database', 'load generator'];
  const cpuRows = results.scenarios.map(({ id, measurement }) => {
    const cells = roles.map((role) => String(measurement.cpuMicrosPerRequest[role] ?? '–'));
    return `| (${id}) | ${cells.join(' | ')} |`;
  });
  const show = (value: number | null) => (value === null ? 'not measured' : String(value));
  const goals = results.goals.map(
    (goal) =>
      `| ${goal.name} | ${goal.target} | ${goal.actual} | ${goal.met ? 'met' : 'NOT met'} |`,
  );
  return [
    '# Benchmark results',
    '',
    `Measured ${results.date} by \`pnpm bench\` (see [README.md](README.md) for what each scenario`,
    'sends and how to read the numbers). Everything ran on 127.0.0.1 on one machine:',
    `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node} (${machine.platform}).`,
    `${options.connections} connections per scenario, ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s measured.`,
    `Other processes used ${results.busyBeforePercent}% of the CPUs in the second before the run`,
    '(the load generator, the services and the database share the same cores, so anything else',
    'running at the same time lowers every number).',
    '',
    '| | Scenario | Requests/s | p50 ms | p99 ms | Requests | Answers | Load avg before |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |',
    ...rows,
    '',
    'CPU time per request, in µs, of each process while it was measured (from `/proc`; less',
    'sensitive to other load than requests/s, though a busy machine inflates it too):',
    '',
    `| | ${roles.join(' | ')} |`,
    `| --- | ${roles.map(() => '---:').join(' | ')} |`,
    ...cpuRows,
    '',
    ...rateLimitCost(results.scenarios),
    ...telemetryCost(results.scenarios),
    `Ratios: (c)/(b) = **${show(results.ratios.gatewayOverService)}** (what the gateway keeps of the`,
    `pets service's throughput), (b)/(a) = **${show(results.ratios.serviceOverBare)}** (what the pets`,
    'service keeps of bare `node:http`).',
    '',
    '| Goal | Target | Measured | |',
    '| --- | --- | --- | --- |',
    ...goals,
    '',
  ].join('\n');
}
