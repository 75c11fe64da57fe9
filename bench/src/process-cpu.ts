import { readdir, readFile } from 'node:fs/promises';

/** Which part of the run a process is, from its command line; undefined for anything else. */
export type Role = 'gateway' | 'pets' | 'store' | 'database' | 'bare server' | 'R1' | 'R2';

/** Linux counts CPU time in ticks of 1/100 s (USER_HZ). */
const TICK_MS = 10;

export function roleOf(commandLine: string): Role | undefined {
  // A shell that only guards a process (its command line names the process too) is not it.
  if (/^(\S*\/)?sh\s/.test(commandLine)) return undefined;
  if (/services\/gateway\/dist\/main\.js/.test(commandLine)) return 'gateway';
  if (/services\/pets\/dist\/main\.js/.test(commandLine)) return 'pets';
  if (/services\/store\/dist\/main\.js/.test(commandLine)) return 'store';
  if (/bench\/dist\/bare-server\.js/.test(commandLine)) return 'bare server';
  // RK and RT are reference read servers too: their CPU shows in the R1 column of their rows.
  if (/bench\/dist\/reference-(find-one|koa)\.js/.test(commandLine)) return 'R1';
  // RG is a reference proxy too: its CPU shows in the R2 column of its row.
  if (/bench\/dist\/reference-proxy\.js/.test(commandLine)) return 'R2';
  if (/^(\S*\/)?mongod\s/.test(commandLine)) return 'database';
  return undefined;
}

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
}

/** `/proc/<pid>/stat`: the name may hold spaces and parentheses, so fields follow the last `)`. */
export function parseStat(pid: number, stat: string): ProcStat | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) … utime(14) stime(15), counted from 1 in proc(5).
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![ppid, utime, stime].every(Number.isFinite)) return undefined;
  return { pid, ppid, cpuMs: (utime + stime) * TICK_MS };
}

/**
 * CPU time used so far by this process's descendants that play a role in the run (Linux only:
 * elsewhere an empty map), plus the load generator itself (this process).
 */
export async function cpuByRole(): Promise<Map<Role | 'load generator', number>> {
  const usage = process.cpuUsage();
  const byRole = new Map<Role | 'load generator', number>([
    ['load generator', Math.round((usage.user + usage.system) / 1000)],
  ]);
  if (process.platform !== 'linux') return byRole;
  const stats: ProcStat[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
    const parsed = stat === undefined ? undefined : parseStat(Number(entry), stat);
    if (parsed) stats.push(parsed);
  }
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const queue = [...(children.get(process.pid) ?? [])];
  for (let next = queue.shift(); next; next = queue.shift()) {
    queue.push(...(children.get(next.pid) ?? []));
    const commandLine = await readFile(`/proc/${next.pid}/cmdline`, 'utf8').catch(() => '');
    const role = roleOf(commandLine.replaceAll('\0', ' ').trim());
    if (role) byRole.set(role, (byRole.get(role) ?? 0) + next.cpuMs);
  }
  return byRole;
}

/** Each role's CPU time per request, in µs, from the milliseconds it used for `requests`. */
export function cpuMicrosPerRequest(
  cpuMs: Record<string, number>,
  requests: number,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(cpuMs).map(([role, ms]) => [
      role,
      Math.round((ms * 1000) / Math.max(1, requests)),
    ]),
  );
}

/** CPU milliseconds each role used between two samples. */
export function cpuBetween(
  before: Map<string, number>,
  after: Map<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    [...after].map(([role, ms]) => [role, Math.max(0, ms - (before.get(role) ?? 0))]),
  );
}
