import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPetstoreClient, type PetstoreClient } from '@petstore/contract';
import { startStack, type ServiceName, type Stack } from '@petstore/stack';
import { DatabaseReader } from './databases.js';

/** A customer signed up through the API: their key, their account and a client using the key. */
export interface SignedUp {
  apiKey: string;
  accountId: string;
  api: PetstoreClient;
}

export interface TestStack extends AsyncDisposable {
  stack: Stack;
  url: string;
  /** Every line the services wrote, for tests that read the logs. */
  logs: string[];
  /** The lines one process wrote (`gateway`, or `pets-2` among replicas). */
  logsOf(process: string): string[];
  /** A typed client of the gateway with the admin key. */
  admin: PetstoreClient;
  /** A typed client of the gateway with the given key (none: the operations without a key). */
  client(apiKey?: string): PetstoreClient;
  /** Signs a new customer up and returns their key and a client using it. */
  signUp(email?: string): Promise<SignedUp>;
  /** A reader of the stack's databases, connected on first use and closed with the stack. */
  databases(): Promise<DatabaseReader>;
}

/** Rate limits far above what a suite sends (names: services/gateway/README). */
export const unthrottled = {
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
  SIGNUP_RATE_LIMIT_PER_MINUTE: '100000',
  SIGNUP_RATE_LIMIT_BURST: '100000',
  ACCOUNT_MAX_IN_FLIGHT: '100000',
};

let accounts = 0;

/**
 * The whole API as separate processes on free ports, with the embedded database and a data folder
 * of its own. `env` reaches every service (e.g. `UPSTREAM_TIMEOUT_MS`, `GET_PET_SUNSET`).
 */
export async function startTestStack(
  env: Record<string, string> = {},
  { replicas }: { replicas?: Partial<Record<ServiceName, number>> } = {},
): Promise<TestStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'petstore-e2e-'));
  const logs: string[] = [];
  const byProcess = new Map<string, string[]>();
  const stack = await startStack({
    dataDir,
    env: { LOG_LEVEL: 'info', ...env },
    replicas,
    stdio: 'pipe',
    onOutput: (name, chunk) => {
      const lines = chunk.split('\n').filter(Boolean);
      logs.push(...lines);
      byProcess.set(name, [...(byProcess.get(name) ?? []), ...lines]);
    },
  });
  const client = (apiKey?: string) =>
    createPetstoreClient({ baseUrl: stack.url, apiKey });
  let reader: Promise<DatabaseReader> | undefined;
  return {
    stack,
    url: stack.url,
    logs,
    logsOf: (process) => byProcess.get(process) ?? [],
    admin: client(stack.adminApiKey),
    client,
    async signUp(email = `customer${++accounts}.${Date.now()}@example.com`) {
      const res = await client().accounts.createAccount({ body: { email } });
      if (res.status !== 201)
        throw new Error(
          `sign-up failed: ${res.status} ${JSON.stringify(res.body)}`,
        );
      return {
        apiKey: res.body.apiKey,
        accountId: res.body.id,
        api: client(res.body.apiKey),
      };
    },
    databases() {
      reader ??= DatabaseReader.connect(stack.database.uri);
      return reader;
    },
    async [Symbol.asyncDispose]() {
      await reader?.then(
        (databases) => databases.close(),
        () => undefined,
      );
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
