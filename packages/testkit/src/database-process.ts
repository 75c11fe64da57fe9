import { answeringServer } from './answering-server.js';
import { spawnGuarded, stopGuarded } from './guarded-process.js';
import type { MongoServer } from './mongo-server.js';

export interface DatabaseProcess {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Where it answers once started. */
  uri: string;
  timeoutMs: number;
  /** Runs once the process has exited, e.g. to remove a temporary data folder. */
  afterStop?: () => Promise<void>;
}

/**
 * Runs a database server as a guarded process of this one (it never outlives it, even a killed
 * one) and resolves once it answers; a process that exits during start-up fails at once, with
 * the end of what it wrote to stderr.
 */
export function startDatabaseProcess({
  command,
  args,
  env,
  uri,
  timeoutMs,
  afterStop,
}: DatabaseProcess): Promise<MongoServer> {
  const child = spawnGuarded(command, args, { env });
  let output = '';
  child.stdout?.resume();
  child.stderr
    ?.setEncoding('utf8')
    .on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
  const startup = new AbortController();
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      startup.abort(
        new Error(`[testkit] the embedded database exited during start-up: ${output.trim()}`),
      );
      resolve();
    }),
  );
  const stop = async () => {
    await stopGuarded(child);
    await exited;
    await afterStop?.();
  };
  return answeringServer(uri, 'embedded', stop, { timeoutMs, signal: startup.signal });
}
