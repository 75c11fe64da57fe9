import { resolve } from 'node:path';
import { startStack } from './start-stack.js';

// `pnpm start`: the whole API with its data in DATA_DIR, until Ctrl-C or SIGTERM.
const env = process.env;
const stack = await startStack({
  dataDir: resolve(env.DATA_DIR ?? '.data'),
  env,
  ports: {
    gateway: Number(env.PORT ?? 8080),
    pets: Number(env.PETS_PORT ?? 3001),
    store: Number(env.STORE_PORT ?? 3002),
  },
});

const keyNote =
  stack.adminApiKeySource === 'environment'
    ? 'from ADMIN_API_KEY'
    : `kept in ${resolve(env.DATA_DIR ?? '.data', 'admin-api-key')}`;
process.stdout.write(
  [
    '',
    `Petstore API  ${stack.url}/v1   (docs: ${stack.url}/docs, ready: ${stack.url}/ready)`,
    `Admin API key ${stack.adminApiKey}   (${keyNote})`,
    'Ctrl-C stops everything.',
    '',
  ].join('\n'),
);

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(0));
for (const service of [stack.pets, stack.store, stack.gateway]) {
  void service.exited().then((code) => {
    if (stopping) return;
    process.stderr.write(`[stack] ${service.name} exited (${code}); stopping everything\n`);
    void shutdown(1);
  });
}
