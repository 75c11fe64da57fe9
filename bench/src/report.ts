import type { Measurement } from './load.js';
import type { BenchOptions, ScenarioResult } from './run.js';
import { scenariosOf, type Goal, type Metric } from './scenarios.js';

export interface GoalResult {
  figure: string;
  /** The bound, e.g. `≥ 0.85`; `–` for a figure reported without one. */
  goal: string;
  value: number | null;
  /** Whether the bound held and every answer the figure comes from was 2xx. */
  met: boolean;
}

export interface BenchResults {
  date: string;
  machine: string;
  options: Pick<
    BenchOptions,
    'connections' | 'warmupSeconds' | 'seconds' | 'ordersScale'
  >;
  scenarios: ScenarioResult[];
  goals: GoalResult[];
}

const METRIC_NAMES: Record<Metric, string> = {
  requestsPerSecond: 'requests/s',
  p50Ms: 'p50 ms',
  p99Ms: 'p99 ms',
  non2xx: 'answers not 2xx',
  deliveriesPerSecond: 'deliveries/s',
  lagP50Ms: 'delivery lag p50 ms',
  lagP99Ms: 'delivery lag p99 ms',
  missing: 'deliveries missing',
};

/** A scenario whose answers were not all 2xx measured something else than it says. */
export const spoiled = (measurement: Measurement) =>
  measurement.non2xx > 0 || measurement.errors > 0;

/** `metric` of `top`, or of `top` over `bottom` for a ratio; null where it was not measured. */
function figureOf(
  metric: Metric,
  top?: Measurement,
  bottom?: Measurement,
  ratio = false,
) {
  const value = top?.[metric];
  if (value === undefined) return null;
  if (!ratio) return value;
  const under = bottom?.[metric];
  if (!under) return null;
  return Math.round((value / under) * 100) / 100;
}

/** Each goal's figure from `scenarios`, and whether it is met. */
export function evaluate(
  scenarios: ScenarioResult[],
  goals: Goal[],
): GoalResult[] {
  const find = (id?: string) =>
    scenarios.find((result) => result.id === id)?.measurement;
  return goals.map((goal) => {
    const { scenario, over, metric, atLeast, atMost } = goal;
    const value = figureOf(
      metric,
      find(scenario),
      find(over),
      over !== undefined,
    );
    const bounds = [];
    // A number, or what another ratio of the run measured (null where it was not).
    let floor: number | null | undefined;
    if (typeof atLeast === 'object') {
      const { scenario: top, over: bottom } = atLeast;
      floor = figureOf(metric, find(top), find(bottom), true);
      bounds.push(`≥ (${top}) / (${bottom}) = ${floor ?? 'not measured'}`);
    } else {
      floor = atLeast;
      if (atLeast !== undefined) bounds.push(`≥ ${atLeast}`);
    }
    if (atMost !== undefined) bounds.push(`≤ ${atMost}`);
    const within =
      value !== null &&
      floor !== null &&
      value >= (floor ?? -Infinity) &&
      value <= (atMost ?? Infinity);
    const clean = scenariosOf(goal)
      .map(find)
      .every((measured) => measured === undefined || !spoiled(measured));
    return {
      figure: `${METRIC_NAMES[metric]}, (${scenario})${over === undefined ? '' : ` / (${over})`}`,
      goal: bounds.join(' ') || '–',
      value,
      met: within && clean,
    };
  });
}

const cell = (value: number | undefined) =>
  value === undefined ? '–' : String(value);

function scenarioRow({
  id,
  title,
  stack,
  measurement: m,
  loadAverageBefore,
}: ScenarioResult) {
  const answers = spoiled(m)
    ? `**${m.non2xx} not 2xx, ${m.errors} errors**`
    : 'all 2xx';
  const delivery: (keyof Measurement)[] = [
    'deliveriesPerSecond',
    'lagP50Ms',
    'lagP99Ms',
    'missing',
  ];
  return [
    `(${id})`,
    stack,
    title,
    m.requestsPerSecond,
    m.p50Ms,
    m.p99Ms,
    m.requests,
    answers,
    ...delivery.map((key) => cell(m[key])),
    loadAverageBefore,
  ];
}

function goalRow({ figure, goal, value, met }: GoalResult) {
  let verdict = met ? 'met' : '**not met**';
  if (goal === '–') verdict = '';
  return [figure, value ?? 'not measured', goal, verdict];
}

const SCENARIO_HEAD =
  ',Stack,Scenario,Requests/s,p50 ms,p99 ms,Requests,Answers,' +
  'Deliveries/s,Lag p50 ms,Lag p99 ms,Missing,Load avg before';

/** A markdown table; `head` and `align` list their cells with commas. */
const table = (head: string, align: string, rows: (string | number)[][]) =>
  [head.split(','), align.split(','), ...rows]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n');

/** bench/results.md: when and where, the scenarios, then the ratios and goals. */
export function renderMarkdown({
  date,
  machine,
  options,
  scenarios,
  goals,
}: BenchResults): string {
  return [
    '# Benchmark results',
    '',
    `Measured ${date} by \`pnpm bench\` on ${machine}, everything on 127.0.0.1.`,
    `Each scenario: ${options.connections} connections, ${options.warmupSeconds} s warm-up, then`,
    `${options.seconds} s measured; [README.md](README.md) describes them.`,
    options.ordersScale === 1
      ? ''
      : `Stored orders: ${options.ordersScale} of the titles' counts.`,
    '',
    table(
      SCENARIO_HEAD,
      '---,---,---,---:,---:,---:,---:,---,---:,---:,---:,---:,---:',
      scenarios.map(scenarioRow),
    ),
    '',
    table('Figure,Measured,Goal,', '---,---:,---,---', goals.map(goalRow)),
    '',
  ].join('\n');
}
