import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startMongo } from '@petstore/testkit';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_API_KEY,
  INTERNAL_TOKEN,
  bearer,
  signUp,
  type MongoServer,
} from './test-support/gateway-harness.js';

const mainPath = fileURLToPath(new URL('./main.ts', import.meta.url));

let mongo: MongoServer;
beforeAll(async () => {
  mongo = await startMongo();
});
afterAll(async () => {
  await mongo.stop();
});

/** The gateway as its own process, started from `src/main.ts` with only `env`. */
function spawnGateway(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', mainPath], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const listening = async (): Promise<string> => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && child.exitCode === null) {
      const url = /"url":"(http:\/\/[^"]+)"/.exec(output.stdout)?.[1];
      if (url) return url;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the gateway did not start:\n${output.stdout}\n${output.stderr}`);
  };
  return { child, exited, output, listening };
}

describe('main', () => {
  it('serves from the environment, and on SIGTERM writes pending key uses and exits 0', async () => {
    const database = mongo.databaseName('gateway');
    const gateway = spawnGateway({
      PORT: '0',
      MONGODB_URI: mongo.uri,
      MONGODB_DB: database,
      INTERNAL_TOKEN,
      ADMIN_API_KEY,
      KEY_USAGE_FLUSH_MS: '3600000',
      LOG_LEVEL: 'info',
    });
    try {
      const url = await gateway.listening();
      const { apiKey, accountId } = await signUp(url);
      expect((await fetch(`${url}/v1/accounts/me`, { headers: bearer(apiKey) })).status).toBe(200);

      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toEqual([0, null]);
      const client = await new MongoClient(mongo.uri).connect();
      try {
        const key = await client.db(database).collection('api_keys').findOne({ accountId });
        expect(key?.lastUsedAt).toBeInstanceOf(Date);
      } finally {
        await client.close();
      }
      expect(gateway.output.stdout).not.toContain(apiKey);
      expect(gateway.output.stdout).not.toContain(ADMIN_API_KEY);
    } finally {
      gateway.child.kill('SIGKILL');
    }
  });

  it('exits 1 naming every bad variable, without a stack trace', async () => {
    const gateway = spawnGateway({ PORT: 'eighty', ADMIN_API_KEY: 'secret-but-malformed' });
    expect(await gateway.exited).toEqual([1, null]);
    const { stderr } = gateway.output;
    expect(stderr).toContain('PORT: Expected a port number');
    expect(stderr).toContain('INTERNAL_TOKEN');
    expect(stderr).toContain('ADMIN_API_KEY');
    expect(stderr).not.toContain('secret-but-malformed');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
