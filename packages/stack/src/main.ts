import { resolve } from 'node:path';
import { startStack, type ServiceName } from './start-stack.js';
import { exitDescription } from './exit-description.js';

// `pnpm start`: the whole API with its data in DATA_DIR, until Ctrl-C or SIGTERM.
const env = process.env;

function count(variable: string): number {
  const value = env[variable] || '1';
  if (!/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > 16) {
    process.stderr.write(`[stack] ${variable} must be a whole number from 1 to 16\n`);
    process.exit(1);
  }
  return Number(value);
}

const dataDir = resolve(env.DATA_DIR ?? '.data');
const replicas: Record<ServiceName, number> = {
  pets: count('PETS_REPLICAS'),
  store: count('STORE_REPLICAS'),
  gateway: count('GATEWAY_REPLICAS'),
};
const starting = startStack({
  dataDir,
  env,
  replicas,
  // The services write JSON lines; a person at a terminal gets them readable, one line each.
  stdio: process.stdout.isTTY ? 'pretty' : 'inherit',
  ports: {
    gateway: Number(env.PORT || 8080),
    pets: Number(env.PETS_PORT || 3001),
    store: Number(env.STORE_PORT || 3002),
  },
});

let stopping = false;
/** Stops everything once, in order (after start-up, when asked during it), then exits. */
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  // A start that failed has already stopped what it started.
  const started = await starting.catch(() => undefined);
  await started?.stop();
  process.exit(code);
}
// Ctrl-C and SIGTERM are a requested stop: everything stops, and the exit status says success.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(0));

const stack = await starting.catch((error: unknown) => {
  // The message says what to do (a port in use, a data folder in use); a stack trace adds nothing.
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

const everyProcess = [...stack.replicas.pets, ...stack.replicas.store, ...stack.replicas.gateway];
const keyNote =
  stack.adminApiKeySource === 'environment'
    ? 'from ADMIN_API_KEY'
    : `kept in ${resolve(dataDir, 'admin-api-key')}`;
const more = stack.replicas.gateway.slice(1).map((gateway) => gateway.url);
if (!stopping) {
  process.stdout.write(
    [
      '',
      `Petstore API  ${stack.url}/v1   (every operation, as JSON)`,
      `Reference     ${stack.url}/docs   (paste the admin key under Authentication to try operations)`,
      `OpenAPI       ${stack.url}/openapi.json`,
      `Ready         ${stack.url}/ready`,
      ...(more.length > 0 ? [`More gateways ${more.join(', ')}`] : []),
      `Admin API key ${stack.adminApiKey}   (${keyNote})`,
      `Processes     ${everyProcess.map((process) => `${process.name} ${process.url}`).join(', ')}`,
      `Metrics       ${everyProcess.map((process) => `${process.name} ${process.metricsUrl ?? '–'}`).join(', ')}`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

// A process that dies takes the stack down with it, saying which and how: a stack with a part
// missing would answer some requests and not others.
for (const service of everyProcess) {
  void service.exited().then((code) => {
    if (stopping) return;
    process.stderr.write(`[stack] ${service.name} ${exitDescription(code)}; stopping everything\n`);
    void shutdown(1);
  });
}
