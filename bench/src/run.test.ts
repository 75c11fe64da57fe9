import { expect, it } from 'vitest';
import { runBench } from './run.js';
import { SCENARIOS } from './scenarios.js';

// The bench under a token load against a real stack: reference servers (RT traced), the services,
// a read while another customer's bodies hang, an order scenario with webhook receivers, and a
// growth level that places orders first.
it('measures the scenarios against a real stack, every answer 2xx', async () => {
  // The growth level before any order: it places a hundredth of its 1 000 orders first.
  const ids = ['R1', 'RT', 'RG', 'b', 'c', 's', 'g1k-list', 'd', 'w'];
  const scenarios = SCENARIOS.filter(({ id }) => ids.includes(id))
    .map((scenario) => ({ ...scenario, stack: 'main' as const }))
    .sort((one, other) => ids.indexOf(one.id) - ids.indexOf(other.id));
  const logged: string[] = [];
  const results = await runBench(scenarios, {
    connections: 2,
    warmupSeconds: 0,
    // A count, not a time: on a machine running every other suite an order may take seconds.
    amount: 4,
    seconds: 60,
    stackWarmupSeconds: 0,
    ordersScale: 0.01,
    log: (line) => logged.push(line),
    onOutput: () => {},
  });

  expect(results.map(({ id }) => id)).toEqual(ids);
  for (const { measurement } of results) {
    expect(measurement).toMatchObject({ non2xx: 0, errors: 0 });
    expect(measurement.requests).toBeGreaterThan(0);
  }
  const webhook = results.find(({ id }) => id === 'w')?.measurement;
  expect(webhook?.missing).toBe(0);
  expect(webhook?.deliveriesPerSecond).toBeGreaterThan(0);
  expect(
    logged.some((line) => /^placing 10 orders, up to 10 stored$/.test(line)),
  ).toBe(true);
  // RT exported its spans, at the latest as it stopped.
  expect(
    logged.some((line) =>
      /^the trace sink received [1-9]\d* exports$/.test(line),
    ),
  ).toBe(true);
  const slow = results.find(({ id }) => id === 's');
  expect(slow?.title).toMatch(
    / order bodies hang; .*\d+ unanswered at the end$/,
  );
}, 180_000);
