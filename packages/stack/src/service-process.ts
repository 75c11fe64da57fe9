import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnGuarded, stopGuarded } from '@petstore/testkit';
import { printPretty } from './pretty-logs.js';

export interface ServiceProcessOptions {
  name: string;
  /** The compiled entry point, e.g. `services/pets/dist/main.js`. */
  entry: string;
  /** Flags for `node` itself, before the entry point, e.g. `['--cpu-prof']`. Default: none. */
  nodeArgs?: string[];
  env: Record<string, string>;
  /** Where `/health` answers once the service is up. */
  url: string;
  /** Where Prometheus scrapes the process, when it serves metrics. */
  metricsUrl?: string;
  /**
   * `inherit` shows the service's logs as it writes them (JSON lines), `pretty` as a person at a
   * terminal reads them; `pipe` hands them to `onOutput`.
   */
  stdio: 'inherit' | 'pretty' | 'pipe';
  onOutput?: (name: string, chunk: string) => void;
}

/** One service as a separate Node process that can be stopped and started again. */
export class ServiceProcess {
  private child: ChildProcess | undefined;

  constructor(readonly options: ServiceProcessOptions) {}

  get name(): string {
    return this.options.name;
  }

  get url(): string {
    return this.options.url;
  }

  get metricsUrl(): string | undefined {
    return this.options.metricsUrl;
  }

  get running(): boolean {
    return (
      this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null
    );
  }

  /** Starts the process and resolves once its `/health` answers 200. */
  async start(timeoutMs = 30_000): Promise<void> {
    const { name, entry, nodeArgs = [], env, stdio, onOutput } = this.options;
    // Guarded: the service never outlives this process, even a killed one.
    const child = spawnGuarded(process.execPath, [...nodeArgs, entry], {
      env: { ...process.env, ...env },
      output: stdio === 'inherit' ? 'inherit' : 'pipe',
    });
    this.child = child;
    if (stdio === 'pipe') {
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => onOutput?.(name, chunk));
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => onOutput?.(name, chunk));
    }
    if (stdio === 'pretty' && child.stdout && child.stderr) {
      printPretty(child.stdout, process.stdout, name);
      printPretty(child.stderr, process.stderr, name);
    }
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(
          `[stack] ${name} exited during start-up (${child.exitCode ?? child.signalCode})`,
        );
      const healthy = await fetch(`${this.url}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (healthy) return;
      await sleep(100);
    }
    await this.stop();
    throw new Error(`[stack] ${name} did not answer /health within ${timeoutMs} ms`);
  }

  /** The pid of the service's own process (not its guard's). */
  async pid(): Promise<number> {
    if (!this.child?.pid || !this.running) throw new Error(`[stack] ${this.name} is not running`);
    // The guard has two children, the service and the subshell that watches the guard's input;
    // only the service is named after node (the subshell goes when the service does).
    const { stdout } = await promisify(execFile)('pgrep', [
      '-P',
      String(this.child.pid),
      '-x',
      basename(process.execPath),
    ]);
    const [pid] = stdout.split('\n').filter(Boolean).map(Number);
    if (pid === undefined) throw new Error(`[stack] ${this.name} has no service process`);
    return pid;
  }

  /**
   * Sends `signal` to the service's own process (not its guard), e.g. SIGSTOP and SIGCONT to
   * stall it, or SIGKILL to make it die as a crash would.
   */
  async signal(signal: NodeJS.Signals): Promise<void> {
    process.kill(await this.pid(), signal);
  }

  /** Sends SIGTERM (the service finishes in-flight requests) and waits for the exit. */
  async stop(): Promise<void> {
    if (this.child && this.running) await stopGuarded(this.child);
  }

  /** Resolves when the process ends by itself or otherwise, with its exit code. */
  async exited(): Promise<number | null> {
    const child = this.child;
    if (!child || !this.running) return child?.exitCode ?? null;
    const [code] = (await once(child, 'exit')) as [number | null];
    return code;
  }
}
