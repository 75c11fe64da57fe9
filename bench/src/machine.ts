import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** Percent of all cores busy over the next `ms`: what else is running on the machine. */
export async function cpuBusyPercent(ms = 1_000): Promise<number> {
  const totals = () =>
    cpus().reduce(
      (sum, { times }) => ({
        idle: sum.idle + times.idle,
        all: sum.all + times.user + times.nice + times.sys + times.idle + times.irq,
      }),
      { idle: 0, all: 0 },
    );
  const before = totals();
  await sleep(ms);
  const after = totals();
  const all = after.all - before.all;
  return all <= 0 ? 0 : Math.round((1 - (after.idle - before.idle) / all) * 100);
}

export function loadAverage(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function machine() {
  const [cpu] = cpus();
  return {
    cpus: cpus().length,
    cpuModel: cpu?.model.trim() ?? 'unknown',
    node: process.versions.node,
    platform: `${process.platform} ${process.arch}`,
  };
}
