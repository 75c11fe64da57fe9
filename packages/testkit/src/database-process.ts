import { readFile, stat } from 'node:fs/promises';
import { answeringServer, type MongodAddresses } from './answering-server.js';
import { spawnGuarded, stopGuarded } from './guarded-process.js';
import type { MongoServer } from './mongo-server.js';

export interface DatabaseProcess {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Where it answers once started. */
  addresses: MongodAddresses;
  timeoutMs: number;
  /** Where it logs, when not on its stdout: read to say why it exited during start-up. */
  logFile?: string;
}

/**
 * Runs mongod as a guarded process of this one (it never outlives it, even a killed one) and
 * resolves once it is the primary of its replica set; a process that exits during start-up fails
 * at once, with what it logged as errors (or the end of its log).
 */
export async function startDatabaseProcess({
  command,
  args,
  env,
  addresses,
  timeoutMs,
  logFile,
}: DatabaseProcess): Promise<MongoServer> {
  // The log is appended to across restarts: only what this process adds says why it exited.
  const logStart = logFile
    ? await stat(logFile).then(
        ({ size }) => size,
        () => 0,
      )
    : 0;
  const child = spawnGuarded(command, args, { env });
  let output = '';
  const keep = (chunk: string) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  const startup = new AbortController();
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      void (async () => {
        const log = logFile
          ? await readFile(logFile).catch(() => Buffer.alloc(0))
          : undefined;
        const logged = log?.subarray(logStart).toString('utf8') ?? '';
        const said = whyItExited(output + logged);
        startup.abort(
          new Error(
            `[testkit] mongod exited during start-up (status ${code}): ${said}`,
          ),
        );
        resolve();
      })();
    }),
  );
  const stop = async () => {
    await stopGuarded(child);
    await exited;
  };
  return answeringServer(addresses, 'embedded', stop, {
    timeoutMs,
    signal: startup.signal,
  });
}

/**
 * mongod's errors and fatal errors from its JSON log, or the log's end when it logged none. The
 * errors are picked out because a log file may be shared: another mongod on the same folder goes
 * on logging after this one has exited.
 */
function whyItExited(log: string): string {
  const errors = log.split('\n').filter((line) => /"s":"[EF]"/.test(line));
  return (errors.length > 0 ? errors.join('\n') : log).slice(-4000).trim();
}
