import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '@petstore/testkit';
import { openDatabase, type StackDatabase } from './database.js';
import { loadSecrets } from './secrets.js';
import { ServiceProcess, type ServiceProcessOptions } from './service-process.js';

export interface StackOptions {
  /** Secrets and the embedded database's files live here. */
  dataDir: string;
  /** `MONGODB_URI`, `INTERNAL_TOKEN`, `ADMIN_API_KEY`, `LOG_LEVEL`, …; handed to every service. */
  env?: Record<string, string | undefined>;
  /** Where each process listens on 127.0.0.1; a free port where absent. */
  ports?: { gateway?: number; pets?: number; store?: number };
  stdio?: ServiceProcessOptions['stdio'];
  /**
   * Extra `node` flags for one service's process only, e.g. to profile the gateway:
   * `{ gateway: ['--cpu-prof', '--cpu-prof-dir=profiles'] }` (the profile is written when it stops).
   */
  nodeArgs?: Partial<Record<'pets' | 'store' | 'gateway', string[]>>;
  onOutput?: ServiceProcessOptions['onOutput'];
}

export interface Stack {
  /** The gateway: the API's base address. */
  url: string;
  adminApiKey: string;
  adminApiKeySource: 'environment' | 'data directory' | 'generated';
  internalToken: string;
  database: StackDatabase;
  pets: ServiceProcess;
  store: ServiceProcess;
  gateway: ServiceProcess;
  /** Stops the gateway, then the services, then the embedded database. */
  stop(): Promise<void>;
}

function entry(service: string): string {
  return fileURLToPath(new URL(`../../../services/${service}/dist/main.js`, import.meta.url));
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((pair): pair is [string, string] => pair[1] !== undefined),
  );
}

/**
 * The whole API on one machine: the database (unless `MONGODB_URI` is given), then pets, store
 * and the gateway, each a process of its own, each started once the one before answers.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const env = options.env ?? {};
  await mkdir(options.dataDir, { recursive: true });
  const secrets = await loadSecrets(options.dataDir, env);
  const database = await openDatabase(options.dataDir, env.MONGODB_URI);
  const port = async (given?: number) => (given === undefined ? freePort() : given);
  const [gatewayPort, petsPort, storePort] = await Promise.all([
    port(options.ports?.gateway),
    port(options.ports?.pets),
    port(options.ports?.store),
  ]);
  const url = (p: number) => `http://127.0.0.1:${p}`;
  const common = {
    ...definedOnly(env),
    HOST: '127.0.0.1',
    MONGODB_URI: database.uri,
    INTERNAL_TOKEN: secrets.internalToken,
  };
  const service = (
    name: 'pets' | 'store' | 'gateway',
    servicePort: number,
    extra: Record<string, string>,
  ) =>
    new ServiceProcess({
      name,
      entry: entry(name),
      nodeArgs: options.nodeArgs?.[name],
      env: { ...common, ...extra, PORT: String(servicePort) },
      url: url(servicePort),
      stdio: options.stdio ?? 'inherit',
      onOutput: options.onOutput,
    });
  const pets = service('pets', petsPort, {});
  const store = service('store', storePort, { PETS_URL: pets.url });
  const gateway = service('gateway', gatewayPort, {
    HOST: env.HOST ?? '127.0.0.1',
    PETS_URL: pets.url,
    STORE_URL: store.url,
    ADMIN_API_KEY: secrets.adminApiKey,
    PUBLIC_URL: env.PUBLIC_URL ?? url(gatewayPort),
  });
  const stop = async () => {
    await gateway.stop();
    await Promise.all([store.stop(), pets.stop()]);
    await database.stop();
  };
  try {
    for (const process of [pets, store, gateway]) await process.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: gateway.url, ...secrets, database, pets, store, gateway, stop };
}
