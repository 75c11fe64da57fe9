import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  evaluate,
  renderMarkdown,
  spoiled,
  type BenchResults,
} from './report.js';
import { runBench, type BenchOptions } from './run.js';
import { GOALS, SCENARIOS, scenariosOf } from './scenarios.js';

// `pnpm bench`: the scenarios of scenarios.ts one after the other, then bench/results.md and
// bench/results.json. `--only=R1,c` runs some of them, `--quick` all of them under a token load;
// either prints the tables and writes no results file.
const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '10' },
  },
});
const benchDir = join(import.meta.dirname, '..');
await mkdir(join(benchDir, 'logs'), { recursive: true });
const serviceLog = createWriteStream(join(benchDir, 'logs', 'stack.log'));

const full: Omit<BenchOptions, 'log' | 'onOutput'> = {
  connections: Number(args.connections),
  warmupSeconds: Number(args.warmup),
  seconds: Number(args.duration),
  stackWarmupSeconds: 10,
  ordersScale: 1,
};
const quick = {
  connections: 4,
  warmupSeconds: 0,
  seconds: 1,
  stackWarmupSeconds: 0,
  ordersScale: 0.01,
};
const options: BenchOptions = {
  ...(args.quick ? quick : full),
  log: (line) => process.stderr.write(`[bench] ${line}\n`),
  onOutput: (service, chunk) => serviceLog.write(`[${service}] ${chunk}`),
};
const only = args.only?.split(',').map((id) => id.trim());
const scenarios = SCENARIOS.filter(({ id }) => only?.includes(id) ?? true);

const measured = await runBench(scenarios, options);
const ran = new Set(measured.map(({ id }) => id));
// With --only, the figures of the scenarios that ran; every goal otherwise.
const goals = GOALS.filter(
  (goal) => !only || scenariosOf(goal).every((id) => ran.has(id)),
);
const [cpu] = cpus();
const { connections, warmupSeconds, seconds, ordersScale, log } = options;
const results: BenchResults = {
  date: new Date().toISOString(),
  machine: `${cpus().length} × ${cpu?.model.trim() ?? 'unknown CPU'}, Node ${process.versions.node} (${process.platform} ${process.arch})`,
  options: { connections, warmupSeconds, seconds, ordersScale },

  scenarios: measured,
  goals: evaluate(measured, goals),
};
const markdown = renderMarkdown(results);
if (only === undefined && !args.quick) {
  // Measured once by hand, not by this command: kept below every run's tables.
  const recordedOnce = await readFile(
    join(benchDir, 'node-20-vs-24.md'),
    'utf8',
  );
  await writeFile(join(benchDir, 'results.md'), `${markdown}\n${recordedOnce}`);
  await writeFile(
    join(benchDir, 'results.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  log('wrote bench/results.md and bench/results.json');
}
process.stdout.write(`\n${markdown}`);
serviceLog.end();
process.exitCode = measured.some(({ measurement }) => spoiled(measurement))
  ? 1
  : 0;
