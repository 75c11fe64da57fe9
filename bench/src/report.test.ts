import { describe, expect, it } from 'vitest';
import type { Measurement } from './load.js';
import {
  evaluate,
  renderMarkdown,
  type BenchResults,
  type ScenarioResult,
  type StageCosts,
} from './report.js';
import type { Database, ScenarioId } from './scenario-ids.js';
import { STAGES, type Stage } from './stage-costs.js';

function scenario(
  id: ScenarioId,
  database: Database | undefined,
  requestsPerSecond: number,
  p99: number,
  more: Partial<Measurement> = {},
): ScenarioResult {
  return {
    id,
    title: `scenario ${id}`,
    database,
    loadAverageBefore: 0.5,
    measurement: {
      requestsPerSecond,
      latencyMs: { p50: 1, p90: 2, p99, max: p99 + 1 },
      requests: requestsPerSecond * 10,
      non2xx: 0,
      errors: 0,
      statusCodes: { '200': requestsPerSecond * 10 },
      durationSeconds: 10,
      cpuMicrosPerRequest: { gateway: 120 },
      ...more,
    },
  };
}

const options = { connections: 32, warmupSeconds: 2, durationSeconds: 10 };
const embedded = 'mongod' as const;

/** Scenarios by id: requests per second, p99 and what else differs. */
type Runs = Partial<Record<ScenarioId, [number, number, Partial<Measurement>?]>>;

/** A run on the embedded database that meets the first six goals at their bounds. */
const atBounds: Runs = {
  R1: [2_000, 20],
  R2: [2_000, 20],
  RK: [2_000, 20],
  RG: [2_000, 20],
  RT: [1_200, 20],
  b: [1_700, 20],
  c: [1_700, 25],
  d: [400, 90],
  j0: [300, 200],
  j: [270, 210],
};

function onEmbedded(runs: Runs): ScenarioResult[] {
  return Object.entries(runs).map(([id, [perSecond, p99, more]]) =>
    scenario(id as ScenarioId, embedded, perSecond, p99, more),
  );
}

describe('evaluate', () => {
  it('gives the run’s ratios against the references and meets the goals at their bounds', () => {
    const { ratios, goals } = evaluate(
      [scenario('a', undefined, 10_000, 3), ...onEmbedded(atBounds)],
      options,
    );
    expect(ratios.byDatabase).toEqual({
      mongod: {
        petsOverR1: 0.85,
        gatewayOverR2: 0.85,
        ordersOverR1: 0.2,
        gatewayOverPets: 1,
        koaOverR1: 1,
        tracedOverR1: 0.6,
        petsOverRK: 0.85,
        gatewayOverRG: 0.85,
      },
    });
    expect(ratios.serviceOverBare).toBe(0.17);
    expect(ratios.hangingReceiverOverOrders).toBe(0.9);
    expect(goals.slice(0, 6).map((goal) => goal.met)).toEqual([true, true, true, true, true, true]);
    expect(goals[0]?.name).toBe('pets / RK on mongod, (b)/RK');
    expect(goals[4]?.name).toContain('32 connections');
  });

  it('misses the goals below their bounds', () => {
    const { goals } = evaluate(
      onEmbedded({ ...atBounds, b: [1_680, 20], c: [840, 26], d: [380, 90], j: [267, 210] }),
      options,
    );
    expect(goals.slice(0, 6).map((goal) => [goal.actual, goal.met])).toEqual([
      ['0.84', false],
      ['0.42', false],
      ['0.19', false],
      ['0.5', false],
      ['26 ms', false],
      ['0.89', false],
    ]);
  });

  it('meets no goal, even at its bound, with answers that were not all 2xx', () => {
    const { goals } = evaluate(
      onEmbedded({
        ...atBounds,
        b: [1_700, 20, { non2xx: 3 }],
        c: [1_700, 25, { errors: 1 }],
        d: [400, 90, { non2xx: 1 }],
        j: [270, 210, { non2xx: 1 }],
      }),
      options,
    );
    expect(goals.slice(0, 6).map((goal) => goal.met)).toEqual(Array(6).fill(false));
  });

  it('names the database the scenarios ran on when it is the one MONGODB_URI names', () => {
    const { ratios, goals } = evaluate(
      [scenario('RK', 'MONGODB_URI', 1_000, 5), scenario('b', 'MONGODB_URI', 900, 5)],
      options,
    );
    expect(ratios.byDatabase.MONGODB_URI?.petsOverRK).toBe(0.9);
    expect(goals[0]).toMatchObject({ name: 'pets / RK on MONGODB_URI, (b)/RK', met: true });
  });

  it('holds tracing’s cost in each process of a traced read to RT’s over R1', () => {
    const cpu = (micros: Record<string, number>) => ({ cpuMicrosPerRequest: micros });
    const { goals } = evaluate(
      onEmbedded({
        R1: [2_000, 20, cpu({ R1: 90 })],
        RT: [1_200, 20, cpu({ R1: 140 })],
        c: [1_000, 20, cpu({ gateway: 100, pets: 150 })],
        i: [700, 20, cpu({ gateway: 150, pets: 201 })],
      }),
      options,
    );
    const tracing = goals.filter(({ name }) => name.startsWith('tracing’s CPU per request in'));
    expect(tracing.map(({ target, actual, met }) => [target, actual, met])).toEqual([
      ['≤ 50 µs', '50 µs', true],
      ['≤ 50 µs', '51 µs', false],
    ]);
  });

  it('lists the growth goals as not measured when (g) did not run', () => {
    const { goals } = evaluate([scenario('R1', embedded, 1_000, 5)], options);
    const growth = goals.filter(({ name }) => name.endsWith('(g)'));
    expect(growth.map((goal) => [goal.actual, goal.met])).toEqual(
      Array.from({ length: 5 }, () => ['not measured', false]),
    );
  });
});

/** The report of `scenarios` as a run on a small machine would render it. */
function markdownOf(
  scenarios: ScenarioResult[],
  commands: BenchResults['commands'] = {},
  stages?: StageCosts,
): string {
  return renderMarkdown({
    date: '2026-01-01T00:00:00.000Z',
    machine: { cpus: 2, cpuModel: 'CPU', node: '20.19.0', platform: 'linux x64' },
    busyBeforePercent: 3,
    options,
    scenarios,
    ...evaluate(scenarios, options, { commands, stages }),
    commands,
    stages,
  });
}

/** A profile's shares: `given` in percent, the rest of the busy time in `other`. */
function shares(given: Partial<Record<Stage, number>>): Record<Stage, number> {
  const all = Object.fromEntries(STAGES.map((stage) => [stage, given[stage] ?? 0]));
  const rest = 100 - Object.values(given).reduce((sum, share) => sum + share, 0);
  return { ...all, other: rest } as Record<Stage, number>;
}

/** Fails unless `markdown` has every one of `lines`. */
function expectLines(markdown: string, lines: string[]): void {
  for (const line of lines) expect(markdown).toContain(line);
}

describe('renderMarkdown', () => {
  it('tables every scenario with its database, answers, CPU per request, ratios, commands and goals', () => {
    const scenarios = onEmbedded({
      R1: [2_000, 20],
      b: [1_800, 20],
      c: [900, 40, { non2xx: 2, statusCodes: { '200': 8998, '503': 2 } }],
    });
    const markdown = markdownOf(scenarios, {
      mongod: [
        {
          id: 'd',
          operation: 'an order',
          perRequest: 3.5,
          byCommand: { 'store: insert orders': 1, 'store: findAndModify inventory': 2.5 },
        },
      ],
    });
    expectLines(markdown, [
      '| R1 | mongod | scenario R1 | 2000 | 1 | 20 | 20000 | all 2xx | 0.50 |',
      '| (c) | mongod | scenario c | 900 | 1 | 40 | 9000 | 2× 503 | 0.50 |',
      '| (c) | mongod | – | – | – | 120 | – | – | – | – |',
      '| mongod | – | – | **0.9** | – | – | **0.5** |',
      '| mongod | an order | 3.5 | store: insert orders 1; store: findAndModify inventory 2.5 |',
      '| database commands per request of an order, its event’s hand-over included (every service) | ≤ 5 | 3.5 | met |',
      '| database commands per request of an order with an `Idempotency-Key`, its event’s hand-over included (every service) | ≤ 7 | not measured | NOT met |',
      '| ≤ 25 ms | 40 ms | NOT met |',
      '3% of the CPUs',
    ]);
    expect(markdown).not.toContain('Webhooks:');
  });

  it('says what a hanging webhook receiver cost orders and how many deliveries it was sent', () => {
    const scenarios = [
      scenario('j0', embedded, 300, 200),
      {
        ...scenario('j', embedded, 285, 210),
        webhookReceiver: { requests: 3, hangingWhileMeasured: 2 },
      },
    ];
    expectLines(markdownOf(scenarios), [
      '| (j0) | mongod | scenario j0 | 300 | 1 | 200 | 3000 | all 2xx | 0.50 |',
      '| (j) | mongod | scenario j | 285 | 1 | 210 | 2850 | all 2xx |',
      'orders\nkeep **0.95** of their throughput without one, (j)/(j0)',
      'sent 3 deliveries during (j), 2\nof them hanging',
      '| orders with a hanging webhook receiver / orders on mongod, (j)/(j0) | ≥ 0.9 | 0.95 | met |',
    ]);
  });

  it('tables each stage’s CPU per request and checks that tracing costs nothing unexported', () => {
    const stages: StageCosts = [
      {
        process: 'R1',
        scenario: 'R1',
        cpuMicrosPerRequest: 100,
        shares: shares({ 'database driver': 60 }),
      },
      {
        process: 'pets',
        scenario: 'b',
        cpuMicrosPerRequest: 200,
        shares: shares({ 'database driver': 40, validation: 10, tracing: 0.2 }),
      },
      {
        process: 'gateway',
        scenario: 'c',
        cpuMicrosPerRequest: 150,
        shares: shares({ tracing: 2 }),
      },
    ];
    const markdown = markdownOf(onEmbedded({ R1: [2_000, 20], b: [1_800, 20] }), {}, stages);
    expectLines(markdown, [
      '| Stage | R1 | pets, (b) | gateway, (c) |',
      '| validation | 0 | 20 | 0 |',
      '| database driver | 60 | 80 | 0 |',
      '| other | 40 | 100 | 147 |',
      '| **CPU per request** | **100** | **200** | **150** |',
      '| tracing’s CPU per request in pets with no exporter set (stage table) | ≤ 1 µs | 0 µs | met |',
      '| tracing’s CPU per request in gateway with no exporter set (stage table) | ≤ 1 µs | 3 µs | NOT met |',
    ]);
    expect(markdown).not.toContain('| request id |');
  });
});
