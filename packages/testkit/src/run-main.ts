import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface RunningMain extends AsyncDisposable {
  child: ChildProcess;
  /** The exit code and signal, once the process has ended. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  output(): { stdout: string; stderr: string };
  /** The address of the service's `listening` log line, once it is written (bounded wait). */
  url(): Promise<string>;
}

/**
 * A service's `src/main.ts` as its own process, as `pnpm dev` runs it (tsx), with only `env`
 * (and PATH), so a test sees what the environment alone configures. `await using` kills it if it
 * is still running.
 */
export function runMain(
  entry: string,
  env: Record<string, string>,
): RunningMain {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit') as Promise<
    [number | null, NodeJS.Signals | null]
  >;
  return {
    child,
    exited,
    async [Symbol.asyncDispose]() {
      if (child.exitCode === null && child.signalCode === null)
        child.kill('SIGKILL');
      await exited;
    },
    output: () => ({ stdout, stderr }),
    url: () =>
      new Promise((resolve, reject) => {
        const finish = (then: () => void) => {
          clearTimeout(timer);
          child.stdout.off('data', look);
          child.off('exit', fail);
          then();
        };
        const fail = () => {
          finish(() => {
            reject(new Error(`${entry} did not start:\n${stdout}\n${stderr}`));
          });
        };
        const look = () => {
          const url = /"url":"(http:\/\/[^"]+)"/.exec(stdout)?.[1];
          if (url)
            finish(() => {
              resolve(url);
            });
        };
        const timer = setTimeout(fail, 30_000);
        if (child.exitCode !== null) {
          fail();
          return;
        }
        child.stdout.on('data', look);
        child.once('exit', fail);
        look();
      }),
  };
}
