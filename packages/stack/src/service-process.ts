import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { spawnGuarded, stopGuarded } from '@petstore/testkit';
import { prettyFactory } from 'pino-pretty';

/** How much of a piped service's last output a start-up failure quotes. */
const OUTPUT_KEPT = 2_000;

export interface ServiceProcessOptions {
  name: string;
  entry: string;
  nodeArgs?: string[];
  env: Record<string, string>;
  url: string;
  metricsUrl?: string;
  stdio: 'inherit' | 'pretty' | 'pipe';
  onOutput?: (name: string, chunk: string) => void;
}

export class ServiceProcess {
  readonly name: string;
  readonly url: string;
  readonly metricsUrl: string | undefined;
  private child: ChildProcess | undefined;

  constructor(readonly options: ServiceProcessOptions) {
    ({ name: this.name, url: this.url, metricsUrl: this.metricsUrl } = options);
  }

  get running(): boolean {
    return this.child?.exitCode === null && this.child.signalCode === null;
  }

  async start(timeoutMs = 30_000): Promise<void> {
    const { name, entry, nodeArgs = [], env, stdio, onOutput } = this.options;
    // Guarded: the service never outlives this process, even a killed one.
    const child = spawnGuarded(process.execPath, [...nodeArgs, entry], {
      env: { ...process.env, ...env },
      output: stdio === 'inherit' ? 'inherit' : 'pipe',
    });
    this.child = child;
    const pipes =
      stdio === 'pipe'
        ? [child.stdout, child.stderr].filter((p) => p !== null)
        : [];
    // What a piped service last wrote while starting, so that a failed start says why.
    let lastOutput = '';
    const keep = (chunk: string) => {
      lastOutput = (lastOutput + chunk).slice(-OUTPUT_KEPT);
    };
    for (const pipe of pipes) {
      pipe.setEncoding('utf8').on('data', keep);
      pipe.on('data', (chunk: string) => onOutput?.(name, chunk));
    }
    if (stdio === 'pretty' && child.stdout && child.stderr) {
      printPretty(child.stdout, process.stdout, name);
      printPretty(child.stderr, process.stderr, name);
    }
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) {
        const status = child.exitCode ?? child.signalCode;
        // The pipes may still have the last words of a process that has exited.
        await Promise.all(pipes.map((pipe) => finished(pipe).catch(() => {})));
        const said = lastOutput.trim() ? `: ${lastOutput.trim()}` : '';
        throw new Error(
          `[stack] ${name} exited during start-up (${status})${said}`,
        );
      }
      if ((await fetch(`${this.url}/health`).catch(() => undefined))?.ok) {
        for (const pipe of pipes) pipe.off('data', keep);
        return;
      }
      await sleep(100);
    }
    await this.stop();
    throw new Error(
      `[stack] ${name} did not answer /health within ${timeoutMs} ms`,
    );
  }

  /** The pid of the service's own process, not its guard's. */
  async pid(): Promise<number> {
    if (!this.child?.pid || !this.running)
      throw new Error(`[stack] ${this.name} is not running`);
    // The guard's other child is the subshell watching its input. Matched by the command line:
    // Node 24 names its main thread, and so the process's name, `MainThread`.
    const args = ['-o', 'pid=,args=', '--ppid', String(this.child.pid)];
    const { stdout } = await promisify(execFile)('ps', args);
    const [pid] = stdout
      .split('\n')
      .map((line) => line.trim().split(' '))
      .filter(([, command]) => command === process.execPath)
      .map(([id]) => Number(id));
    if (pid === undefined)
      throw new Error(`[stack] ${this.name} has no service process`);
    return pid;
  }

  async signal(signal: NodeJS.Signals): Promise<void> {
    process.kill(await this.pid(), signal);
  }

  async stop(): Promise<void> {
    if (this.child && this.running) await stopGuarded(this.child);
  }

  async exited(): Promise<number | null> {
    if (!this.child || !this.running) return this.child?.exitCode ?? null;
    return ((await once(this.child, 'exit')) as [number | null])[0];
  }
}

// A line that is not JSON (a crash's stack trace) passes as it is, after the process's name.
export function printPretty(
  lines: Readable,
  out: Writable,
  process: string,
): void {
  const prettify = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name,method,path,status,durationMs',
    messageFormat: (log, messageKey) => {
      const request =
        typeof log.method === 'string'
          ? ` ${log.method} ${String(log.path)} ${String(log.status)} ${String(log.durationMs)} ms`
          : '';
      return `${process}: ${String(log[messageKey])}${request}`;
    },
  });
  createInterface({ input: lines, crlfDelay: Infinity }).on('line', (line) => {
    out.write(line.startsWith('{') ? prettify(line) : `${process}: ${line}\n`);
  });
}

/** By `"<command> <collection>"` (e.g. `"find pets"`), from the process's metrics. */
export async function databaseCommands(
  process: ServiceProcess,
): Promise<Map<string, number>> {
  if (!process.metricsUrl)
    throw new Error(`[stack] ${process.name} serves no metrics`);
  const text = await (await fetch(process.metricsUrl)).text();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('db_client_operation_duration_seconds_count{'))
      continue;
    const label = (name: string) =>
      new RegExp(`${name}="([^"]*)"`).exec(line)?.[1] ?? '';
    const key = `${label('db_operation_name')} ${label('db_collection_name')}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.split(' ').at(-1)));
  }
  return counts;
}
