import { describe, expect, it } from 'vitest';
import type { Measurement } from './load.js';
import { evaluate, renderMarkdown, type ScenarioId, type ScenarioResult } from './report.js';

function scenario(
  id: ScenarioId,
  requestsPerSecond: number,
  p99: number,
  more: Partial<Measurement> = {},
): ScenarioResult {
  return {
    id,
    title: `scenario ${id}`,
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

describe('evaluate', () => {
  it('gives (c)/(b) and (b)/(a) and meets both goals when the gateway keeps 60% at p99 ≤ 25 ms', () => {
    const { ratios, goals } = evaluate(
      [scenario('a', 10_000, 3), scenario('b', 2_000, 20), scenario('c', 1_200, 25)],
      options,
    );
    expect(ratios).toEqual({ gatewayOverService: 0.6, serviceOverBare: 0.2 });
    expect(goals.map((goal) => goal.met)).toEqual([true, true]);
    expect(goals[1]?.name).toContain('32 connections');
  });

  it('misses the goals below 0.6 or above 25 ms', () => {
    const { goals } = evaluate([scenario('b', 2_000, 20), scenario('c', 1_000, 26)], options);
    expect(goals.map((goal) => [goal.actual, goal.met])).toEqual([
      ['0.5', false],
      ['26 ms', false],
    ]);
  });

  it('meets no goal with answers that were not all 2xx', () => {
    const { goals } = evaluate(
      [scenario('b', 1_000, 5), scenario('c', 1_000, 5, { non2xx: 3 })],
      options,
    );
    expect(goals.map((goal) => goal.met)).toEqual([false, false]);
  });

  it('says what was not measured', () => {
    const { ratios, goals } = evaluate([scenario('a', 10_000, 3)], options);
    expect(ratios).toEqual({ gatewayOverService: null, serviceOverBare: null });
    expect(goals.map((goal) => [goal.actual, goal.met])).toEqual([
      ['not measured', false],
      ['not measured', false],
    ]);
  });
});

describe('renderMarkdown', () => {
  it('tables every scenario with its answers, CPU per request, the ratios and the goals', () => {
    const scenarios = [
      scenario('b', 2_000, 20),
      scenario('c', 900, 40, { non2xx: 2, statusCodes: { '200': 8998, '503': 2 } }),
    ];
    const markdown = renderMarkdown({
      date: '2026-01-01T00:00:00.000Z',
      machine: { cpus: 2, cpuModel: 'CPU', node: '20.19.0', platform: 'linux x64' },
      busyBeforePercent: 3,
      options,
      scenarios,
      ...evaluate(scenarios, options),
    });
    expect(markdown).toContain('| (b) | scenario b | 2000 | 1 | 20 | 20000 | all 2xx | 0.50 |');
    expect(markdown).toContain('| (c) | scenario c | 900 | 1 | 40 | 9000 | 2× 503 | 0.50 |');
    expect(markdown).toContain('| (c) | – | 120 | – | – | – | – |');
    expect(markdown).toContain('(c)/(b) = **0.45**');
    expect(markdown).toContain('| ≤ 25 ms | 40 ms | NOT met |');
    expect(markdown).toContain('3% of the CPUs');
  });
});
