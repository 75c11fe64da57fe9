import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The command runs under a small sh guard that ends it (SIGTERM, then waits) when the guard's
 * standard input closes: `stopGuarded` closes it, and so does the operating system when this
 * process dies, so nothing started here outlives its owner, even one that is killed. The guard
 * exits as soon as the command does, with its exit status (128 + the signal's number for a
 * command ended by a signal), so its owner sees a command that died by itself.
 */
const guard = `exec 3<&0
"$@" </dev/null &
child=$!
(read -r _ <&3; kill "$child" 2>/dev/null) &
watcher=$!
wait "$child"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"`;

export interface GuardedOptions {
  env?: NodeJS.ProcessEnv;
  /** What becomes of the command's stdout and stderr. */
  output?: 'pipe' | 'inherit' | 'ignore';
}

export function spawnGuarded(
  command: string,
  args: string[],
  { env = process.env, output = 'pipe' }: GuardedOptions = {},
): ChildProcess {
  return spawn('sh', ['-c', guard, command, command, ...args], {
    env,
    stdio: ['pipe', output, output],
    // A process group of its own: a Ctrl-C in the terminal reaches only the owner, which stops
    // its commands in its own order (the services before their database), not all at once.
    detached: true,
  });
}

/** Ends a guarded command and resolves with its exit code once it has exited. */
export async function stopGuarded(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve(child.exitCode);
    else
      child.once('exit', (code) => {
        resolve(code);
      });
  });
  child.stdin?.end();
  return exited;
}
