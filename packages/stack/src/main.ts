import { constants } from 'node:os';
import { resolve } from 'node:path';
import { startStack } from './start-stack.js';

// `pnpm start`: the whole API with its data in DATA_DIR, until Ctrl-C or SIGTERM.
const env = process.env;

function replicasOf(service: string): number {
  const variable = `${service.toUpperCase()}_REPLICAS`;
  const value = env[variable] || '1';
  if (!/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > 16) {
    process.stderr.write(
      `[stack] ${variable} must be a whole number from 1 to 16\n`,
    );
    process.exit(1);
  }
  return Number(value);
}

function exitDescription(code: number | null): string {
  if (code === null) return 'exited';
  const signal = Object.entries(constants.signals).find(
    ([, number]) => number === code - 128,
  );
  return signal
    ? `was killed by ${signal[0]} (status ${code})`
    : `exited with status ${code}`;
}

const dataDir = resolve(env.DATA_DIR ?? '.data');
const replicas = Object.fromEntries(
  ['pets', 'store', 'gateway'].map((s) => [s, replicasOf(s)]),
);
// A development stack on this machine alone may send webhooks to receivers on it; one listening
// on another address may not, unless told so.
const onThisMachineAlone = ['127.0.0.1', '::1', 'localhost'].includes(
  env.HOST ?? '127.0.0.1',
);
const allowPrivateUrls =
  env.WEBHOOK_ALLOW_PRIVATE_URLS ?? String(onThisMachineAlone);
const starting = startStack({
  dataDir,
  env: { ...env, WEBHOOK_ALLOW_PRIVATE_URLS: allowPrivateUrls },
  replicas,
  stdio: process.stdout.isTTY ? 'pretty' : 'inherit',
  ports: {
    gateway: Number(env.PORT || 8080),
    pets: Number(env.PETS_PORT || 3001),
    store: Number(env.STORE_PORT || 3002),
  },
});

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  // A start that failed has already stopped what it started.
  await (await starting.catch(() => undefined))?.stop();
  process.exit(code);
}
// A requested stop: the exit status says success.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void shutdown(0));

const stack = await starting.catch((error: unknown) => {
  // The message says what to do (a port in use, a data folder in use); a stack trace adds nothing.
  process.stderr.write(
    `${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
const everyProcess = Object.values(stack.replicas).flat();
const fromEnv = stack.adminApiKeySource === 'environment';
const keyNote = fromEnv
  ? 'from ADMIN_API_KEY'
  : `kept in ${resolve(dataDir, 'admin-api-key')}`;
const more = stack.replicas.gateway.slice(1).map((gateway) => gateway.url);
if (!stopping) {
  process.stdout.write(
    [
      '',
      `Petstore API  ${stack.url}/v2   (every operation, as JSON; /v1 still works)`,
      `Reference     ${stack.url}/docs   (paste the admin key under Authentication to try operations)`,
      `OpenAPI       ${stack.url}/openapi.json`,
      `Ready         ${stack.url}/ready`,
      ...(more.length > 0 ? [`More gateways ${more.join(', ')}`] : []),
      `Admin API key ${stack.adminApiKey}   (${keyNote})`,
      allowPrivateUrls === 'true'
        ? 'Webhooks      may go to receivers on this machine or a private network (WEBHOOK_ALLOW_PRIVATE_URLS=false refuses them)'
        : 'Webhooks      only to public addresses (WEBHOOK_ALLOW_PRIVATE_URLS=true allows receivers on this machine)',
      `Processes     ${everyProcess.map((process) => `${process.name} ${process.url}`).join(', ')}`,
      `Metrics       ${everyProcess.map((process) => `${process.name} ${process.metricsUrl ?? '–'}`).join(', ')}`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

// A stack with a part missing would serve some requests and not others.
for (const service of everyProcess) {
  void service.exited().then((code) => {
    if (stopping) return;
    process.stderr.write(
      `[stack] ${service.name} ${exitDescription(code)}; stopping everything\n`,
    );
    void shutdown(1);
  });
}
