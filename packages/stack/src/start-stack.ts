import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '@petstore/testkit';
import { lockDataDir } from './data-dir-lock.js';
import { openDatabase, type StackDatabase } from './database.js';
import { ensurePortFree } from './ports.js';
import { loadSecrets } from './secrets.js';
import { ServiceProcess, type ServiceProcessOptions } from './service-process.js';

export type ServiceName = 'pets' | 'store' | 'gateway';

export interface StackOptions {
  /** Secrets and the embedded database's files live here; one stack at a time may use it. */
  dataDir: string;
  /**
   * `MONGODB_URI`, `INTERNAL_TOKEN`, `ADMIN_API_KEY`, `LOG_LEVEL`, …; handed
   * to every service.
   */
  env?: Record<string, string | undefined>;
  /** Where the first process of each service listens on 127.0.0.1; free ports where absent. */
  ports?: Partial<Record<ServiceName, number>>;
  /** How many processes of each service (1 by default). */
  replicas?: Partial<Record<ServiceName, number>>;
  stdio?: ServiceProcessOptions['stdio'];
  /**
   * Extra `node` flags for one service's processes only, e.g. to profile the gateway:
   * `{ gateway: ['--cpu-prof', '--cpu-prof-dir=profiles'] }` (the profile is written when it stops).
   */
  nodeArgs?: Partial<Record<ServiceName, string[]>>;
  onOutput?: ServiceProcessOptions['onOutput'];
  /** Whether each process serves Prometheus metrics on a free port of its own (default: yes). */
  metrics?: boolean;
}

export interface Stack {
  /** The (first) gateway: the API's base address. */
  url: string;
  adminApiKey: string;
  adminApiKeySource: 'environment' | 'data directory' | 'generated';
  internalToken: string;
  database: StackDatabase;
  /** The first process of each service. */
  pets: ServiceProcess;
  store: ServiceProcess;
  gateway: ServiceProcess;
  /** Every process of each service, the first one first. */
  replicas: Record<ServiceName, ServiceProcess[]>;
  /** Stops the gateways, then the services, then the embedded database, and frees the folder (once). */
  stop(): Promise<void>;
}

const PORT_VARIABLES: Record<ServiceName, string> = {
  gateway: 'PORT',
  pets: 'PETS_PORT',
  store: 'STORE_PORT',
};

function entry(service: ServiceName): string {
  return fileURLToPath(new URL(`../../../services/${service}/dist/main.js`, import.meta.url));
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((pair): pair is [string, string] => pair[1] !== undefined),
  );
}

const url = (port: number) => `http://127.0.0.1:${port}`;

/**
 * The whole API on one machine: the database (unless `MONGODB_URI` is given), then pets, store
 * and the gateway, each as one or more processes of its own, each service started once the one
 * before answers. The gateways spread requests over the replicas of pets and store, and the store
 * over those of pets.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const env = options.env ?? {};
  const replicas = { pets: 1, store: 1, gateway: 1, ...options.replicas };
  await mkdir(options.dataDir, { recursive: true });
  for (const [service, port] of Object.entries(options.ports ?? {})) {
    if (port) await ensurePortFree(port, PORT_VARIABLES[service as ServiceName]);
  }
  const unlock = await lockDataDir(options.dataDir);
  let database: StackDatabase | undefined;
  const processes: Record<ServiceName, ServiceProcess[]> = { pets: [], store: [], gateway: [] };
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      for (const group of [processes.gateway, processes.store, processes.pets]) {
        await Promise.all(group.map((process) => process.stop()));
      }
      await database?.stop();
      await unlock();
    })());
  try {
    const secrets = await loadSecrets(options.dataDir, env);
    database = await openDatabase(options.dataDir, env.MONGODB_URI);
    const portsOf = async (service: ServiceName) =>
      Promise.all(
        Array.from({ length: replicas[service] }, (_, index) => {
          const given = index === 0 ? options.ports?.[service] : undefined;
          return given === undefined ? freePort() : Promise.resolve(given);
        }),
      );
    const ports = {
      pets: await portsOf('pets'),
      store: await portsOf('store'),
      gateway: await portsOf('gateway'),
    };
    const common = {
      ...definedOnly(env),
      HOST: '127.0.0.1',
      MONGODB_URI: database.uri,
      INTERNAL_TOKEN: secrets.internalToken,
    };
    const petsUrls = ports.pets.map(url).join(',');
    const storeUrls = ports.store.map(url).join(',');
    // Pets and the store hand their events to the gateways, for webhooks.
    const gatewayUrls = ports.gateway.map(url).join(',');
    const extra: Record<ServiceName, (port: number) => Record<string, string>> = {
      pets: () => ({ GATEWAY_URL: gatewayUrls }),
      store: () => ({ PETS_URL: petsUrls, GATEWAY_URL: gatewayUrls }),
      gateway: (port) => ({
        HOST: env.HOST ?? '127.0.0.1',
        PETS_URL: petsUrls,
        STORE_URL: storeUrls,
        ADMIN_API_KEY: secrets.adminApiKey,
        PUBLIC_URL: env.PUBLIC_URL ?? url(port),
      }),
    };
    for (const service of ['pets', 'store', 'gateway'] as const) {
      processes[service] = await Promise.all(
        ports[service].map(async (port, index) => {
          // Each process's Prometheus metrics, on a port of their own.
          const metricsPort = options.metrics === false ? undefined : await freePort();
          return new ServiceProcess({
            name: replicas[service] === 1 ? service : `${service}-${index + 1}`,
            entry: entry(service),
            nodeArgs: options.nodeArgs?.[service],
            env: {
              ...common,
              ...extra[service](port),
              PORT: String(port),
              ...(metricsPort === undefined ? {} : { METRICS_PORT: String(metricsPort) }),
            },
            url: url(port),
            metricsUrl: metricsPort === undefined ? undefined : `${url(metricsPort)}/metrics`,
            stdio: options.stdio ?? 'inherit',
            onOutput: options.onOutput,
          });
        }),
      );
      await Promise.all(processes[service].map((process) => process.start()));
    }
    const [pets, store, gateway] = [processes.pets[0], processes.store[0], processes.gateway[0]];
    if (!pets || !store || !gateway) throw new Error('[stack] every service needs a process');
    return {
      url: gateway.url,
      ...secrets,
      database,
      pets,
      store,
      gateway,
      replicas: processes,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
