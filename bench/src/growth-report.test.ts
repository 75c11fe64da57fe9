import { describe, expect, it } from 'vitest';
import { growthGoals, growthTable, ordersKept } from './growth-report.js';
import type { GrowthLevel, GrowthResult } from './growth.js';

function level(
  target: number,
  ordersPerSecond: number,
  p50Ms: number,
  more: Partial<GrowthLevel> = {},
): GrowthLevel {
  const read = { p50Ms, p99Ms: p50Ms * 2, requests: 200, failed: {} };
  return {
    target,
    orders: target,
    pets: target === 50_000 ? 50_003 : 3,
    stockEntries: target === 50_000 ? 50_003 : 3,
    placing: {
      orders: 1_000,
      seconds: 2,
      ordersPerSecond,
      p50Ms: 20,
      failed: {},
      cpuMicrosPerOrder: { gateway: 900, store: 2_000, database: 3_000, 'load generator': 100 },
    },
    reads: { adminOrders: read, customerOrders: read, pets: read, inventory: read },
    loadAverageBefore: 1.5,
    fill: { orders: target, seconds: 10, failed: {} },
    ...more,
  };
}

function growth(...levels: GrowthLevel[]): GrowthResult {
  return { database: 'mongod', clients: 8, levels };
}

describe('growthGoals', () => {
  it('meets the goals at their bounds: orders keep 0.8 of their pace, every p50 is 100 ms', () => {
    const result = growth(level(1_000, 500, 5), level(10_000, 450, 50), level(50_000, 400, 100));
    expect(ordersKept(result)).toBe(0.8);
    const goals = growthGoals(result);
    expect(goals.map((goal) => [goal.actual, goal.met])).toEqual([
      ['0.8', true],
      ['100 ms', true],
      ['100 ms', true],
      ['100 ms', true],
      ['100 ms', true],
    ]);
    expect(goals[0]?.name).toBe('orders/s at 50,000 stored orders / at 1,000, 8 clients, (g)');
    expect(goals[3]?.name).toContain('`GET /v1/pets?limit=20` at 50,000 stored orders');
  });

  it('misses them past their bounds', () => {
    const slower = level(50_000, 390, 101);
    const goals = growthGoals(growth(level(1_000, 500, 5), slower));
    expect(goals.map((goal) => goal.met)).toEqual([false, false, false, false, false]);
    expect(goals[1]?.actual).toBe('101 ms');
  });

  it('misses them when the fill stopped short of the last level, and says so', () => {
    const short = level(50_000, 500, 5, { orders: 42_000 });
    const goals = growthGoals(growth(level(1_000, 500, 5), short));
    expect(goals.map((goal) => goal.met)).toEqual([false, false, false, false, false]);
    expect(goals[0]?.actual).toBe('1 (only 42,000 stored)');
  });

  it('misses them when a measured request was not answered 2xx', () => {
    const failed = level(50_000, 500, 5);
    failed.reads.inventory = { ...failed.reads.inventory, failed: { '503': 1 } };
    expect(growthGoals(growth(level(1_000, 500, 5), failed)).map((goal) => goal.met)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('growthTable', () => {
  it('gives a row per level and what orders kept of their pace', () => {
    const high = level(50_000, 300, 80);
    high.placing.failed = { '504': 2 };
    high.placing.cpuMicrosPerOrder = { gateway: 900, store: 2_600, database: 3_500 };
    const markdown = growthTable(growth(level(1_000, 500, 5), high)).join('\n');
    expect(markdown).toContain(
      '| 1,000 | 3 | 3 | 500 | 900 / – / 2000 / 3000 | 5 | 5 | 5 | 5 | all 2xx | 1.50 |',
    );
    expect(markdown).toContain(
      '| 50,000 | 50,003 | 50,003 | 300 | 900 / – / 2600 / 3500 | 80 | 80 | 80 | 80 | 2× 504 | 1.50 |',
    );
    expect(markdown).toContain(
      "Orders keep **0.6** of their pace from 1,000 to 50,000 stored orders;\nan order costs the stack's processes **1.19** times the CPU it cost at 1,000.",
    );
  });

  it('is empty when (g) did not run', () => {
    expect(growthTable(undefined)).toEqual([]);
  });
});
