import type { WebhookLagResult } from './webhook-lag.js';
import type { OperationCommands } from './commands.js';
import { growthGoals, growthTable } from './growth-report.js';
import type { GrowthResult } from './growth.js';
import type { Goal } from './goal.js';
import type { LoadOptions, Measurement } from './load.js';
import type { Database, ScenarioId } from './scenario-ids.js';
import { STAGES, stageMicros, type Stage } from './stage-costs.js';

export interface ScenarioResult {
  id: ScenarioId;
  /** What is measured, e.g. `GET /v1/pets/{petId} through the gateway`. */
  title: string;
  database?: Database;
  measurement: Measurement;
  /** The 1-minute load average just before the scenario: how busy the machine was. */
  loadAverageBefore: number;
  /** (j): the deliveries its hanging receiver was sent. */
  webhookReceiver?: {
    /** Requests received during the scenario, its warm-up included. */
    requests: number;
    /** Requests left hanging at some moment of the measured part. */
    hangingWhileMeasured: number;
  };
}

/** Throughput ratios on one database, all from the same run of the stack. */
export interface DatabaseRatios {
  /** (b)/R1: what the pets service keeps of the least a pet read costs. */
  petsOverR1: number | null;
  /** (c)/R2: what the gateway path keeps of a minimal proxy in front of R1. */
  gatewayOverR2: number | null;
  /** (d)/R1: orders per second against pet reads per second of R1. */
  ordersOverR1: number | null;
  /** (c)/(b): what the gateway keeps of the pets service's throughput. */
  gatewayOverPets: number | null;
  /** RK/R1: what a read in Koa, and nothing else, keeps of R1: a Koa service's ceiling. */
  koaOverR1: number | null;
  /** RT/R1: what R1 keeps traced and exported: always-on tracing's least cost. */
  tracedOverR1: number | null;
  /** (b)/RK: what the pets service keeps of the least a read costs in Koa. */
  petsOverRK: number | null;
  /** (c)/RG: what the gateway path keeps of a Koa proxy in front of RK. */
  gatewayOverRG: number | null;
}

export interface BenchResults {
  date: string;
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  /** CPU time used by other processes in the second before the run, in percent of all cores. */
  busyBeforePercent: number;
  options: LoadOptions;
  scenarios: ScenarioResult[];
  ratios: {
    byDatabase: Partial<Record<Database, DatabaseRatios>>;
    serviceOverBare: number | null;
    /** (j)/(j0): what orders keep of their throughput with a webhook whose receiver hangs. */
    hangingReceiverOverOrders: number | null;
  };
  goals: Goal[];
  /** Database commands per request of each operation, by database. */
  commands: Partial<Record<Database, OperationCommands[]>>;
  /** Where each process's CPU per request goes, from profiles, when they ran. */
  stages?: StageCosts;
  /** (g): the store measured at growing numbers of orders, when it ran. */
  growth?: GrowthResult;
  /** (w): webhooks keeping up with orders, without a hanging receiver then with one, when it ran. */
  webhooks?: WebhookLagResult[];
}

/** For R1, pets, R2 and the gateway: each stage's share of its profile, and the CPU it scales. */
export type StageCosts = {
  process: string;
  scenario: ScenarioId;
  cpuMicrosPerRequest: number;
  shares: Record<Stage, number>;
}[];

/** The floor ratios to reach: (b)/RK and (c)/RG. */
export const MIN_FLOOR_RATIO = 0.85;
/** Orders per second against R1's pet reads per second. */
export const MIN_ORDERS_OVER_R1 = 0.2;
/** The gateway may cost at most this share of the service's throughput: (c)/(b) ≥ 0.6. */
export const MIN_GATEWAY_RATIO = 0.6;
/** The gateway's p99 at 32 connections. */
export const MAX_GATEWAY_P99_MS = 25;
/** A webhook receiver that hangs should not slow orders: (j)/(j0) ≥ 0.9. */
export const MIN_HANGING_RECEIVER_RATIO = 0.9;
/** With no exporter set, tracing's stage in a service's profile: nothing measurable. */
export const MAX_UNTRACED_MICROS = 1;
/** Database commands per order, its event’s hand-over included; with an `Idempotency-Key`. */
export const MAX_ORDER_COMMANDS = 5;
export const MAX_KEYED_ORDER_COMMANDS = 7;

const round2 = (value: number) => Math.round(value * 100) / 100;

const find = (scenarios: ScenarioResult[], id: ScenarioId, database?: Database) =>
  scenarios.find((scenario) => scenario.id === id && scenario.database === database);

function ratio(
  scenarios: ScenarioResult[],
  [over, overDatabase]: [ScenarioId, Database?],
  [under, underDatabase]: [ScenarioId, Database?],
): number | null {
  const top = find(scenarios, over, overDatabase);
  const bottom = find(scenarios, under, underDatabase);
  if (!top || !bottom || bottom.measurement.requestsPerSecond === 0) return null;
  return round2(top.measurement.requestsPerSecond / bottom.measurement.requestsPerSecond);
}

/** A scenario whose answers were not all 2xx measured something else than it says. */
export function spoiled({ measurement }: ScenarioResult): boolean {
  return measurement.non2xx > 0 || measurement.errors > 0;
}

function databaseRatios(scenarios: ScenarioResult[], database: Database): DatabaseRatios {
  const on = (id: ScenarioId): [ScenarioId, Database] => [id, database];
  return {
    petsOverR1: ratio(scenarios, on('b'), on('R1')),
    gatewayOverR2: ratio(scenarios, on('c'), on('R2')),
    ordersOverR1: ratio(scenarios, on('d'), on('R1')),
    gatewayOverPets: ratio(scenarios, on('c'), on('b')),
    koaOverR1: ratio(scenarios, on('RK'), on('R1')),
    tracedOverR1: ratio(scenarios, on('RT'), on('R1')),
    petsOverRK: ratio(scenarios, on('b'), on('RK')),
    gatewayOverRG: ratio(scenarios, on('c'), on('RG')),
  };
}

/** The database the scenarios ran on: one per run. */
function databaseOf(scenarios: ScenarioResult[]): Database {
  return scenarios.find(({ database }) => database !== undefined)?.database ?? 'mongod';
}

/** The ratios, on the run's database and against the bare server, and whether the goals are met. */
export function evaluate(
  scenarios: ScenarioResult[],
  { connections }: Pick<LoadOptions, 'connections'>,
  { growth, stages, commands = {} }: Pick<BenchResults, 'growth' | 'stages' | 'commands'> = {
    commands: {},
  },
): Pick<BenchResults, 'ratios' | 'goals'> {
  const databases = [...new Set(scenarios.flatMap(({ database }) => database ?? []))];
  const byDatabase = Object.fromEntries(
    databases.map((database) => [database, databaseRatios(scenarios, database)]),
  );
  const clean = (...ids: [ScenarioId, Database?][]) =>
    ids.every(([id, database]) => {
      const scenario = find(scenarios, id, database);
      return scenario !== undefined && !spoiled(scenario);
    });
  const atLeast = (
    name: string,
    value: number | null,
    minimum: number,
    ids: [ScenarioId, Database?][],
  ): Goal => ({
    name,
    target: `≥ ${minimum}`,
    actual: value === null ? 'not measured' : String(value),
    met: value !== null && value >= minimum && clean(...ids),
  });
  const database = databaseOf(scenarios);
  const on = (id: ScenarioId): [ScenarioId, Database] => [id, database];
  const ratios = databaseRatios(scenarios, database);
  const gateway = find(scenarios, 'c', database);
  const hangingReceiverOverOrders = ratio(scenarios, on('j'), on('j0'));
  const goals: Goal[] = [
    atLeast(`pets / RK on ${database}, (b)/RK`, ratios.petsOverRK, MIN_FLOOR_RATIO, [
      on('b'),
      on('RK'),
    ]),
    atLeast(`gateway / RG on ${database}, (c)/RG`, ratios.gatewayOverRG, MIN_FLOOR_RATIO, [
      on('c'),
      on('RG'),
    ]),
    atLeast(`orders / R1 on ${database}, (d)/R1`, ratios.ordersOverR1, MIN_ORDERS_OVER_R1, [
      on('d'),
      on('R1'),
    ]),
    atLeast(
      `gateway throughput / pets service throughput on ${database}, (c)/(b)`,
      ratios.gatewayOverPets,
      MIN_GATEWAY_RATIO,
      [on('c'), on('b')],
    ),
    {
      name: `p99 latency through the gateway on ${database}, (c), at ${connections} connections`,
      target: `≤ ${MAX_GATEWAY_P99_MS} ms`,
      actual: gateway === undefined ? 'not measured' : `${gateway.measurement.latencyMs.p99} ms`,
      met:
        gateway !== undefined &&
        !spoiled(gateway) &&
        gateway.measurement.latencyMs.p99 <= MAX_GATEWAY_P99_MS,
    },
    atLeast(
      `orders with a hanging webhook receiver / orders on ${database}, (j)/(j0)`,
      hangingReceiverOverOrders,
      MIN_HANGING_RECEIVER_RATIO,
      [on('j'), on('j0')],
    ),
    ...tracingGoals(scenarios, database),
    ...untracedGoals(stages),
    ...commandGoals(commands[database]),
    ...growthGoals(growth),
  ];
  const serviceOverBare = ratio(scenarios, on('b'), ['a']);
  return { ratios: { byDatabase, serviceOverBare, hangingReceiverOverOrders }, goals };
}

/** CPU µs per request that `process` spent in `id` beyond what it spent in `base`. */
function extraMicros(
  scenarios: ScenarioResult[],
  database: Database,
  { id, base, process }: { id: ScenarioId; base: ScenarioId; process: string },
): number | undefined {
  const over = find(scenarios, id, database)?.measurement.cpuMicrosPerRequest[process];
  const under = find(scenarios, base, database)?.measurement.cpuMicrosPerRequest[process];
  return over === undefined || under === undefined ? undefined : over - under;
}

/** Always-on tracing costs each process of a traced read, (i) over (c), at most RT over R1. */
function tracingGoals(scenarios: ScenarioResult[], database: Database): Goal[] {
  const floor = extraMicros(scenarios, database, { id: 'RT', base: 'R1', process: 'R1' });
  return ['gateway', 'pets'].map((process) => {
    const cost = extraMicros(scenarios, database, { id: 'i', base: 'c', process });
    return {
      name: `tracing’s CPU per request in ${process}, (i) over (c), against RT over R1`,
      target: floor === undefined ? '≤ RT’s (not measured)' : `≤ ${floor} µs`,
      actual: cost === undefined ? 'not measured' : `${cost} µs`,
      met: cost !== undefined && floor !== undefined && cost <= floor,
    };
  });
}

/** Tracing's stage in the profiles of the services, which run with no exporter set. */
function untracedGoals(stages: StageCosts = []): Goal[] {
  return stages
    .filter(({ process }) => process === 'pets' || process === 'gateway')
    .map(({ process, shares, cpuMicrosPerRequest }) => {
      const micros = stageMicros(shares, cpuMicrosPerRequest).tracing;
      return {
        name: `tracing’s CPU per request in ${process} with no exporter set (stage table)`,
        target: `≤ ${MAX_UNTRACED_MICROS} µs`,
        actual: `${micros} µs`,
        met: micros <= MAX_UNTRACED_MICROS,
      };
    });
}

function commandGoals(operations: OperationCommands[] = []): Goal[] {
  const budgets: [OperationCommands['id'], string, number][] = [
    ['d', 'an order', MAX_ORDER_COMMANDS],
    ['d-keyed', 'an order with an `Idempotency-Key`', MAX_KEYED_ORDER_COMMANDS],
  ];
  return budgets.map(([id, what, most]) => {
    const counted = operations.find((operation) => operation.id === id);
    return {
      name: `database commands per request of ${what}, its event’s hand-over included (every service)`,
      target: `≤ ${most}`,
      actual: counted === undefined ? 'not measured' : String(counted.perRequest),
      met: counted !== undefined && counted.perRequest <= most,
    };
  });
}

/** Each stage's CPU µs per request in R1, pets, R2 and the gateway. */
function stageTable(stages: StageCosts = []): string[] {
  const micros = stages.map(({ shares, cpuMicrosPerRequest }) =>
    stageMicros(shares, cpuMicrosPerRequest),
  );
  const rows = STAGES.filter((stage) => micros.some((column) => column[stage] > 0)).map(
    (stage) => `| ${stage} | ${micros.map((column) => column[stage]).join(' | ')} |`,
  );
  const header = stages.map(({ process, scenario }) =>
    process.startsWith('R') ? process : `${process}, (${scenario})`,
  );
  return section(
    [
      'Where a request’s CPU goes, in µs per request, by stage: each process was profiled',
      '(`node --cpu-prof`) under its scenario in a stack of its own, and a stage’s share of the',
      'profile is applied to the CPU per request the unprofiled run measured (last row). A sample',
      'counts for the innermost code it was in; Node’s HTTP and socket code counts as',
      '`node:http and sockets`, except under the driver or undici, whose sockets they are.',
    ],
    `| Stage | ${header.join(' | ')} |`,
    `| --- | ${header.map(() => '---:').join(' | ')} |`,
    rows.length === 0
      ? []
      : [
          ...rows,
          `| **CPU per request** | ${stages.map((s) => `**${s.cpuMicrosPerRequest}**`).join(' | ')} |`,
        ],
  );
}

function statusSummary({ measurement }: ScenarioResult): string {
  if (measurement.non2xx === 0 && measurement.errors === 0) return 'all 2xx';
  const codes = Object.entries(measurement.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${count}× ${code}`);
  if (measurement.errors > 0) codes.push(`${measurement.errors} connection errors`);
  return codes.join(', ');
}

const show = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : `**${value}**`;

/** `text`, then a table of `rows` under `header` and `divider`; nothing when there are no rows. */
function section(text: string[], header: string, divider: string, rows: string[]): string[] {
  return rows.length === 0 ? [] : [...text, '', header, divider, ...rows, ''];
}

function ratioTable({ byDatabase }: BenchResults['ratios']): string[] {
  const rows = Object.entries(byDatabase).map(
    ([database, ratios]) =>
      `| ${database} | ${show(ratios.petsOverRK)} | ${show(ratios.gatewayOverRG)} | ${show(ratios.petsOverR1)} | ${show(ratios.gatewayOverR2)} | ${show(ratios.ordersOverR1)} | ${show(ratios.gatewayOverPets)} | ${show(ratios.koaOverR1)} | ${show(ratios.tracedOverR1)} |`,
  );
  return section(
    [
      'Ratios of requests/s, each between scenarios of the same run on the same database. The first',
      'two are the goals: a service against RK, the same read in bare Koa, and the gateway against',
      'RG, a bare Koa proxy in front of RK. The last two are floors: what R1 keeps in Koa, and traced.',
    ],
    '| Database | pets / RK, (b)/RK | gateway / RG, (c)/RG | pets / R1, (b)/R1 | gateway / R2, (c)/R2 | orders / R1, (d)/R1 | gateway / pets, (c)/(b) | Koa / R1, RK/R1 | traced / R1, RT/R1 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    rows,
  );
}

/** What metrics, (h), and always-on tracing, (i), cost next to neither, (c). */
function telemetryCost(scenarios: ScenarioResult[]): string[] {
  const database = databaseOf(scenarios);
  const over = (id: ScenarioId) => ratio(scenarios, [id, database], ['c', database]);
  const metrics = over('h');
  const tracing = over('i');
  if (metrics === null && tracing === null) return [];
  return [
    `Telemetry: with metrics on, the gateway read keeps ${show(metrics)} of its throughput without`,
    `telemetry, (h)/(c); with every request traced and exported, ${show(tracing)}, (i)/(c).`,
    '',
  ];
}

/** What a webhook whose receiver never answers, (j), costs orders next to none, (j0). */
function webhookCost(results: BenchResults): string[] {
  const kept = results.ratios.hangingReceiverOverOrders;
  const receiver = find(results.scenarios, 'j', databaseOf(results.scenarios))?.webhookReceiver;
  if (kept === null || !receiver) return [];
  return [
    `Webhooks: with an admin webhook on \`order.created\` whose receiver never answers, orders`,
    `keep **${kept}** of their throughput without one, (j)/(j0) (each in a fresh stack).`,
    `The receiver was sent ${receiver.requests} deliveries during (j), ${receiver.hangingWhileMeasured}`,
    'of them hanging while it was measured.',
    '',
  ];
}

function commandTable(commands: BenchResults['commands']): string[] {
  const rows = Object.entries(commands).flatMap(([database, operations]) =>
    operations.map(({ operation, perRequest, byCommand }) => {
      const parts = Object.entries(byCommand).map(([command, count]) => `${command} ${count}`);
      return `| ${database} | ${operation} | ${perRequest} | ${parts.join('; ')} |`;
    }),
  );
  return section(
    [
      'Database commands per request, counted by the services’ own command monitoring (their',
      'metrics), with the after-work a request leaves (deliveries, status pushes):',
    ],
    '| Database | Operation | Commands | Which (service: command collection, per request) |',
    '| --- | --- | ---: | --- |',
    rows,
  );
}

/** `bench/results.md`: the tables, the ratios, the goals and how quiet the machine was. */
export function renderMarkdown(results: BenchResults): string {
  const { machine, options } = results;
  const label = ({ id }: ScenarioResult) => (id.startsWith('R') ? id : `(${id})`);
  const rows = results.scenarios.map((scenario) => {
    const { measurement: m } = scenario;
    return `| ${label(scenario)} | ${scenario.database ?? '–'} | ${scenario.title} | ${m.requestsPerSecond} | ${m.latencyMs.p50} | ${m.latencyMs.p99} | ${m.requests} | ${statusSummary(scenario)} | ${scenario.loadAverageBefore.toFixed(2)} |`;
  });
  const roles = [
    'bare server',
    'R1',
    'R2',
    'gateway',
    'pets',
    'store',
    'database',
    'load generator',
  ];
  const cpuRows = results.scenarios.map((scenario) => {
    const cells = roles.map((role) =>
      String(scenario.measurement.cpuMicrosPerRequest[role] ?? '–'),
    );
    return `| ${label(scenario)} | ${scenario.database ?? '–'} | ${cells.join(' | ')} |`;
  });
  const scenarioTables =
    rows.length === 0
      ? []
      : [
          '| | Database | Scenario | Requests/s | p50 ms | p99 ms | Requests | Answers | Load avg before |',
          '| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: |',
          ...rows,
          '',
          'CPU time per request, in µs, of each process while it was measured (from `/proc`; less',
          'sensitive to other load than requests/s, though a busy machine inflates it too):',
          '',
          `| | Database | ${roles.join(' | ')} |`,
          `| --- | --- | ${roles.map(() => '---:').join(' | ')} |`,
          ...cpuRows,
          '',
        ];
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
    ...scenarioTables,
    ...ratioTable(results.ratios),
    ...(results.ratios.serviceOverBare === null
      ? []
      : [
          `(b)/(a) = ${show(results.ratios.serviceOverBare)}: what the pets service keeps of bare \`node:http\`.`,
          '',
        ]),
    ...stageTable(results.stages),
    ...telemetryCost(results.scenarios),
    ...webhookCost(results),
    ...growthTable(results.growth),
    ...commandTable(results.commands),
    '| Goal | Target | Measured | |',
    '| --- | --- | --- | --- |',
    ...goals,
    '',
  ].join('\n');
}
