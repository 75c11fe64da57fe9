import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface BenchServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts one of the bench's own servers (`bare-server.js`, `reference-find-one.js`,
 * `reference-proxy.js`) as a process of its own, so that it shares no thread with the load
 * generator, and resolves once it listens.
 */
export async function startBenchServer(
  script: string,
  args: string[] = [],
  {
    nodeArgs = [],
    env = {},
    timeoutMs = 10_000,
  }: { nodeArgs?: string[]; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<BenchServer> {
  const entry = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`[bench] ${script} did not start in time`)),
      timeoutMs,
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`[bench] ${script} exited (${code})`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, stop };
}
