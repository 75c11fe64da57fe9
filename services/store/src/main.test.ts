import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startMongo } from '@petstore/testkit';
import { describe, expect, it } from 'vitest';
import { internalToken } from './test-support/stack.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

/** `src/main.ts` as its own process, as `pnpm dev` runs it, with only the given environment. */
function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    /** The address of the `listening` log line, once it is written (bounded wait). */
    async url(): Promise<string> {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && child.exitCode === null) {
        const match = /"url":"(http:\/\/[^"]+)"/.exec(stdout);
        if (match?.[1]) return match[1];
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`store did not start:\n${stdout}\n${stderr}`);
    },
  };
}

describe('main', () => {
  it('serves with the environment’s config and exits 0 on SIGTERM', async () => {
    await using mongo = await startMongo();
    const store = runMain({
      MONGODB_URI: mongo.uri,
      MONGODB_DB: mongo.databaseName('store'),
      INTERNAL_TOKEN: internalToken,
      PORT: '0',
      LOG_LEVEL: 'info',
    });
    try {
      const url = await store.url();
      expect((await fetch(`${url}/ready`)).status).toBe(200);
      const inventory = await fetch(`${url}/v1/store/inventory`, {
        headers: { 'x-internal-token': internalToken },
      });
      expect(inventory.status).toBe(200);
      store.child.kill('SIGTERM');
      expect(await store.exited).toEqual([0, null]);
    } finally {
      store.child.kill('SIGKILL');
    }
  });

  it('exits 1 naming the variables that are missing or invalid', async () => {
    const store = runMain({ PORT: 'eighty', PETS_URL: 'pets' });
    expect(await store.exited).toEqual([1, null]);
    const { stderr } = store.output();
    expect(stderr).toContain('PORT: Expected a port number');
    expect(stderr).toContain('INTERNAL_TOKEN: Required');
    expect(stderr).toContain('PETS_URL');
  });
});
