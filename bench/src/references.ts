import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Stack } from '@petstore/stack';
import type { Fixtures } from './fixtures.js';
import type { Target } from './scenarios.js';

interface Server {
  url: string;
  stop(): Promise<void>;
}

/**
 * The reference servers the scenarios send to, on the stack's pets database; RT with `traced`,
 * the variables that turn its tracing on.
 */
export async function startReferences(
  stack: Stack,
  { customer }: Fixtures,
  targets: Set<Target>,
  traced: Record<string, string>,
) {
  const started: Server[] = [];
  const urls: Partial<Record<Target, string>> = {};
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
  };
  const start = async (
    kind: Target,
    args: string[],
    env: Record<string, string> = {},
  ) => {
    const server = await startReference(kind, args, env);
    started.push(server);
    urls[kind] = server.url;
    return server.url;
  };
  const pairs = [
    ['R1', 'R2'],
    ['RK', 'RG'],
  ] as const;
  try {
    for (const [read, proxy] of pairs) {
      if (!targets.has(read) && !targets.has(proxy)) continue;
      const upstream = await start(read, [stack.database.uri]);
      if (targets.has(proxy))
        await start(proxy, [upstream, customer.apiKey, customer.accountId]);
    }
    if (targets.has('RT')) await start('RT', [stack.database.uri], traced);
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, stop };
}

/** `reference-server` next to this file: `.js` once built, `.ts` under the tests. */
const REFERENCE_ENTRY = import.meta.filename.replace(
  /references\.(ts|js)$/,
  'reference-server.$1',
);

async function startReference(
  kind: Target,
  args: string[],
  env: Record<string, string>,
): Promise<Server> {
  const child = spawn(process.execPath, [REFERENCE_ENTRY, kind, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  for await (const line of createInterface({ input: child.stdout })) {
    const port = /^listening (\d+)$/.exec(line)?.[1];
    if (port !== undefined) return { url: `http://127.0.0.1:${port}`, stop };
  }
  throw new Error(`[bench] ${kind} exited before it listened`);
}
