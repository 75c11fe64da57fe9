import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceProcess } from '@petstore/stack';
import type { Prng } from '../support/prng.js';

/** One process killed with SIGKILL, and how its restart went. */
export interface InjectedFault {
  /** Milliseconds since the load began. */
  at: number;
  process: string;
  pid: number;
  /** How long until its restart answered `/health` (undefined while it is not back). */
  downMs?: number;
  /** Why it could not be started again, if it could not. */
  restartError?: string;
}

export interface FaultSchedule {
  /** The processes a fault may hit. */
  processes: readonly ServiceProcess[];
  rng: Prng;
  /** When the load began (`Date.now()`), and when faults stop (no fault starts after it). */
  startedAt: number;
  deadline: number;
  /** The pause between one process back and the next fault, drawn in [min, max] ms. */
  gapMs: { min: number; max: number };
  /** At most this many faults, whatever the time. */
  maxFaults: number;
  /** Told of each fault as it happens (killed, then back). */
  report: (line: string) => void;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Kills one process at a time with SIGKILL, as a crash or the OOM killer would, and starts it
 * again at once on the same port; the next fault comes a random pause after it is back. The pause
 * is the schedule (drawn from the seeded generator), not a wait for anything.
 */
export async function injectFaults(
  schedule: FaultSchedule,
): Promise<InjectedFault[]> {
  const { processes, rng, startedAt, deadline, gapMs, maxFaults, report } =
    schedule;
  const faults: InjectedFault[] = [];
  while (faults.length < maxFaults) {
    const gap = rng.int(gapMs.min, gapMs.max);
    const victim = rng.pick(processes);
    if (Date.now() + gap >= deadline) break;
    await sleep(gap);
    const pid = await victim.pid();
    const fault: InjectedFault = {
      at: Date.now() - startedAt,
      process: victim.name,
      pid,
    };
    faults.push(fault);
    process.kill(pid, 'SIGKILL');
    report(`[chaos] +${seconds(fault.at)} SIGKILL ${victim.name} (pid ${pid})`);
    await victim.exited();
    try {
      await victim.start();
      fault.downMs = Date.now() - startedAt - fault.at;
      report(
        `[chaos] +${seconds(Date.now() - startedAt)} ${victim.name} back after ${seconds(fault.downMs)}`,
      );
    } catch (error) {
      fault.restartError =
        error instanceof Error ? error.message : String(error);
      report(
        `[chaos] ${victim.name} could not be started again: ${fault.restartError}`,
      );
      break;
    }
  }
  return faults;
}

/** Starts every process that is not running; the names of those it started. */
export async function restartStopped(
  processes: readonly ServiceProcess[],
): Promise<string[]> {
  const stopped = processes.filter((each) => !each.running);
  await Promise.all(stopped.map((each) => each.start()));
  return stopped.map((each) => each.name);
}
