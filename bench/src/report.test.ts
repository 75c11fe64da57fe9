import { describe, expect, it } from 'vitest';
import type { Measurement } from './load.js';
import { evaluate, renderMarkdown } from './report.js';
import type { ScenarioResult } from './run.js';

const measured = (
  id: string,
  figures: Partial<Measurement>,
): ScenarioResult => ({
  id,
  title: `scenario ${id}`,
  stack: 'main',
  loadAverageBefore: 1,
  measurement: {
    requestsPerSecond: 100,
    p50Ms: 5,
    p99Ms: 20,
    requests: 1000,
    non2xx: 0,
    errors: 0,
    ...figures,
  },
});

describe('evaluate', () => {
  it('divides a scenario by another and holds the ratio to its bound', () => {
    const scenarios = [
      measured('b', { requestsPerSecond: 90 }),
      measured('RK', {}),
    ];
    const [met, notMet, unbounded] = evaluate(scenarios, [
      { scenario: 'b', over: 'RK', metric: 'requestsPerSecond', atLeast: 0.85 },
      { scenario: 'b', over: 'RK', metric: 'requestsPerSecond', atLeast: 0.95 },
      { scenario: 'b', metric: 'p99Ms' },
    ]);
    expect(met).toEqual({
      figure: 'requests/s, (b) / (RK)',
      goal: '≥ 0.85',
      value: 0.9,
      met: true,
    });
    expect(notMet).toMatchObject({ value: 0.9, met: false });
    expect(unbounded).toMatchObject({ goal: '–', value: 20 });
  });

  it('holds a ratio to another ratio of the run, and counts answers not 2xx', () => {
    const scenarios = [
      measured('i', { requestsPerSecond: 70 }),
      measured('c', {}),
      measured('RT', { requestsPerSecond: 60 }),
      measured('R1', {}),
    ];
    const bound = { scenario: 'RT', over: 'R1' };
    const [met, notMet, unmeasured, answers] = evaluate(scenarios, [
      { scenario: 'i', over: 'c', metric: 'requestsPerSecond', atLeast: bound },
      {
        scenario: 'RT',
        over: 'c',
        metric: 'requestsPerSecond',
        atLeast: {
          scenario: 'i',
          over: 'c',
        },
      },
      {
        scenario: 'i',
        over: 'c',
        metric: 'requestsPerSecond',
        atLeast: {
          scenario: 'RT',
          over: 'RG',
        },
      },
      { scenario: 'i', metric: 'non2xx', atMost: 0 },
    ]);
    expect(met).toEqual({
      figure: 'requests/s, (i) / (c)',
      goal: '≥ (RT) / (R1) = 0.6',
      value: 0.7,
      met: true,
    });
    expect(notMet).toMatchObject({ value: 0.6, met: false });
    expect(unmeasured).toMatchObject({
      goal: '≥ (RT) / (RG) = not measured',
      met: false,
    });
    expect(answers).toEqual({
      figure: 'answers not 2xx, (i)',
      goal: '≤ 0',
      value: 0,
      met: true,
    });
  });

  it('meets no goal whose bound comes from a scenario answering other than 2xx', () => {
    const scenarios = [
      measured('i', {}),
      measured('c', {}),
      measured('RT', { non2xx: 1 }),
      measured('R1', {}),
    ];
    const [spoiled] = evaluate(scenarios, [
      {
        scenario: 'i',
        over: 'c',
        metric: 'requestsPerSecond',
        atLeast: { scenario: 'RT', over: 'R1' },
      },
    ]);
    expect(spoiled).toMatchObject({ value: 1, met: false });
  });

  it('meets no goal whose scenario was not measured or answered other than 2xx', () => {
    const scenarios = [measured('c', { non2xx: 3 })];
    const [spoiled, missing, absentFigure] = evaluate(scenarios, [
      { scenario: 'c', metric: 'p99Ms', atMost: 25 },
      { scenario: 'c', over: 'RG', metric: 'requestsPerSecond', atLeast: 0.85 },
      { scenario: 'c', metric: 'lagP99Ms', atMost: 2_000 },
    ]);
    expect(spoiled).toMatchObject({ value: 20, met: false });
    expect(missing).toMatchObject({ value: null, met: false });
    expect(absentFigure).toMatchObject({ value: null, met: false });
  });
});

it('renders a row per scenario and per figure, marking answers other than 2xx', () => {
  const scenarios = [
    measured('c', { non2xx: 3 }),
    measured('w', { lagP99Ms: 180, missing: 0 }),
  ];
  const markdown = renderMarkdown({
    date: '2026-11-29T07:00:00.000Z',
    machine: '2 × CPU',
    options: { connections: 32, warmupSeconds: 2, seconds: 10, ordersScale: 1 },
    scenarios,
    goals: evaluate(scenarios, [
      { scenario: 'c', metric: 'p99Ms', atMost: 25 },
    ]),
  });
  expect(markdown).toContain(
    '| (c) | main | scenario c | 100 | 5 | 20 | 1000 | **3 not 2xx, 0 errors** | – | – | – | – | 1 |',
  );
  expect(markdown).toContain(
    '| (w) | main | scenario w | 100 | 5 | 20 | 1000 | all 2xx | – | – | 180 | 0 | 1 |',
  );
  expect(markdown).toContain('| p99 ms, (c) | 20 | ≤ 25 | **not met** |');
});
