import {
  GROWTH_LEVELS,
  GROWTH_PETS,
  GROWTH_READS,
  levelFailures,
  ORDER_CLIENTS,
  ORDER_SAMPLE,
  spoiledLevel,
  type GrowthLevel,
  type GrowthRead,
  type GrowthResult,
} from './growth.js';
import type { Goal } from './goal.js';

/** Orders per second at the last level over those at the first: (g) ≥ 0.8. */
export const MIN_GROWTH_ORDERS_RATIO = 0.8;
/** Each read's p50 at the last level. */
export const MAX_GROWTH_P50_MS = 100;

const count = (value: number) => value.toLocaleString('en-US');
const first = GROWTH_LEVELS[0];
const last = GROWTH_LEVELS[GROWTH_LEVELS.length - 1] ?? first;

/** A level that reached its number of orders and whose requests were all answered 2xx. */
const sound = (level: GrowthLevel | undefined): level is GrowthLevel =>
  level !== undefined && level.orders >= level.target && !spoiledLevel(level);

const levelAt = (growth: GrowthResult | undefined, target: number) =>
  growth?.levels.find((level) => level.target === target);

/** Orders per second at the last level over those at the first, to 2 places. */
export function ordersKept(growth: GrowthResult | undefined): number | null {
  const [low, high] = [levelAt(growth, first), levelAt(growth, last)];
  if (!low || !high || low.placing.ordersPerSecond === 0) return null;
  return Math.round((high.placing.ordersPerSecond / low.placing.ordersPerSecond) * 100) / 100;
}

/** (g)'s goals: orders keep their pace, and every read stays quick, at the last level. */
export function growthGoals(growth: GrowthResult | undefined): Goal[] {
  const kept = ordersKept(growth);
  const [low, high] = [levelAt(growth, first), levelAt(growth, last)];
  const notReached =
    high && high.orders < high.target ? ` (only ${count(high.orders)} stored)` : '';
  return [
    {
      name: `orders/s at ${count(last)} stored orders / at ${count(first)}, ${ORDER_CLIENTS} clients, (g)`,
      target: `≥ ${MIN_GROWTH_ORDERS_RATIO}`,
      actual: kept === null ? 'not measured' : `${kept}${notReached}`,
      met: kept !== null && kept >= MIN_GROWTH_ORDERS_RATIO && sound(low) && sound(high),
    },
    ...(Object.entries(GROWTH_READS) as [GrowthRead, string][]).map(([read, title]) => {
      const p50 = high?.reads[read].p50Ms;
      return {
        name: `p50 of ${title} at ${count(last)} stored orders and ${count(GROWTH_PETS)} more pets, (g)`,
        target: `≤ ${MAX_GROWTH_P50_MS} ms`,
        actual: p50 === undefined ? 'not measured' : `${p50} ms${notReached}`,
        met: p50 !== undefined && p50 <= MAX_GROWTH_P50_MS && sound(high),
      };
    }),
  ];
}

function failures(level: GrowthLevel): string {
  const parts = Object.entries(levelFailures(level)).map(
    ([status, times]) => `${times}× ${status}`,
  );
  return parts.length === 0 ? 'all 2xx' : parts.join(', ');
}

/** The processes whose CPU per order the table shows, in its order. */
const STACK_ROLES = ['gateway', 'pets', 'store', 'database'];

/** What an order cost the stack's processes together, in CPU µs. */
const stackCpuPerOrder = (level: GrowthLevel) =>
  STACK_ROLES.reduce((sum, role) => sum + (level.placing.cpuMicrosPerOrder[role] ?? 0), 0);

/** `results.md`'s section on (g): a row per level, then what orders kept of their pace. */
export function growthTable(growth: GrowthResult | undefined): string[] {
  if (!growth || growth.levels.length === 0) return [];
  const rows = growth.levels.map((level) => {
    const p50s = (Object.keys(GROWTH_READS) as GrowthRead[]).map((read) => level.reads[read].p50Ms);
    const cpu = STACK_ROLES.map((role) => level.placing.cpuMicrosPerOrder[role] ?? '–');
    return `| ${count(level.orders)} | ${count(level.pets)} | ${count(level.stockEntries)} | ${level.placing.ordersPerSecond} | ${cpu.join(' / ')} | ${p50s.join(' | ')} | ${failures(level)} | ${level.loadAverageBefore.toFixed(2)} |`;
  });
  const kept = ordersKept(growth);
  const [low, high] = [levelAt(growth, first), levelAt(growth, last)];
  const cpuGrowth =
    low && high && stackCpuPerOrder(low) > 0
      ? Math.round((stackCpuPerOrder(high) / stackCpuPerOrder(low)) * 100) / 100
      : null;
  return [
    `(g) on ${growth.database}, one stack as \`pnpm start\` runs it, measured as its store grows:`,
    `orders per second placed by ${growth.clients} clients (the ${count(ORDER_SAMPLE.count)} orders placed after the reads),`,
    'the CPU µs per order they cost the gateway / pets / store / database, and the p50 in ms of',
    'one client reading each list (`limit=20`) again and again:',
    '',
    '| Stored orders | Pets | Stock entries | Orders/s | CPU µs per order | p50 orders, admin | p50 orders, customer | p50 pets | p50 inventory | Answers | Load avg before |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    ...rows,
    '',
    ...(kept === null
      ? []
      : [
          `Orders keep **${kept}** of their pace from ${count(first)} to ${count(last)} stored orders;`,
          `an order costs the stack's processes **${cpuGrowth ?? '–'}** times the CPU it cost at ${count(first)}.`,
          '',
        ]),
  ];
}
