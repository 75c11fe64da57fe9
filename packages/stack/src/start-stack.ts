import { once } from 'node:events';
import { chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { freePort, startMongod, type MongoServer } from '@petstore/testkit';
import { loadSecrets, type StackSecrets } from './secrets.js';
import {
  ServiceProcess,
  type ServiceProcessOptions,
} from './service-process.js';

export type ServiceName = 'pets' | 'store' | 'gateway';

export interface StackOptions extends Partial<
  Pick<ServiceProcessOptions, 'stdio' | 'onOutput'>
> {
  dataDir: string;
  env?: Record<string, string | undefined>;
  /** Of the first process of each service; free ports where absent. */
  ports?: Partial<Record<ServiceName, number>>;
  replicas?: Partial<Record<ServiceName, number>>;
  nodeArgs?: Partial<Record<ServiceName, string[]>>;
  metrics?: boolean;
}

export type StackDatabase = {
  readonly uri: string;
  stop(): Promise<void>;
  start(): Promise<void>;
};

export interface Stack
  extends StackSecrets, Record<ServiceName, ServiceProcess> {
  url: string;
  database: StackDatabase;
  replicas: Record<ServiceName, ServiceProcess[]>;
  stop(): Promise<void>;
}

const SERVICES = ['pets', 'store', 'gateway'] as const;
const PORT_VARIABLES = {
  gateway: 'PORT',
  pets: 'PETS_PORT',
  store: 'STORE_PORT',
};
const url = (port: number) => `http://127.0.0.1:${port}`;

async function ensurePortFree(port: number, variable: string): Promise<void> {
  const server = createServer().listen(port, '127.0.0.1');
  await once(server, 'listening').catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'EADDRINUSE'
        ? `[stack] port ${port} is in use (${variable}): stop what listens there or set ${variable} to another port`
        : `[stack] cannot listen on port ${port} (${variable}): ${error.message}`,
    );
  });
  await new Promise((resolve) => server.close(resolve));
}

async function openDatabase(
  dataDir: string,
  mongoUri: string | undefined,
): Promise<StackDatabase> {
  if (mongoUri)
    return { uri: mongoUri, stop: async () => {}, start: async () => {} };
  // One port for the stack's life, so that a restart (database.start()) is found where the
  // services look; a stack started again on the same data may take another.
  const port = await freePort();
  const start = () =>
    startMongod({ dataDir: join(dataDir, 'mongodb'), port }).catch(
      (error: unknown) => {
        // mongod locks its folder: a second stack on the same data finds it taken.
        if (!(error instanceof Error) || !error.message.includes('DBPathInUse'))
          throw error;
        throw new Error(
          `[stack] another stack is running on ${dataDir} (DATA_DIR): stop it, or set DATA_DIR to another folder`,
        );
      },
    );
  let server: MongoServer | undefined = await start();
  return {
    uri: server.uri,
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async start() {
      server ??= await start();
    },
  };
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const env = options.env ?? {};
  const replicas = { pets: 1, store: 1, gateway: 1, ...options.replicas };
  await mkdir(options.dataDir, { recursive: true });
  // It has e-mails, messages and the admin key: its owner's alone, whatever made it.
  await chmod(options.dataDir, 0o700);
  for (const [service, port] of Object.entries(options.ports ?? {})) {
    if (port)
      await ensurePortFree(port, PORT_VARIABLES[service as ServiceName]);
  }
  let database: StackDatabase | undefined;
  const processes: Record<ServiceName, ServiceProcess[]> = {
    pets: [],
    store: [],
    gateway: [],
  };
  let stopped: Promise<void> | undefined;
  const stopEverything = async () => {
    for (const group of [processes.gateway, processes.store, processes.pets]) {
      await Promise.all(group.map((process) => process.stop()));
    }
    await database?.stop();
  };
  const stop = () => {
    stopped ??= stopEverything();
    return stopped;
  };
  try {
    const secrets = await loadSecrets(options.dataDir, env);
    database = await openDatabase(options.dataDir, env.MONGODB_URI);
    const ports = { pets: [], store: [], gateway: [] } as Record<
      ServiceName,
      number[]
    >;
    for (const service of SERVICES) {
      // The first replica takes the port asked for, if any; the others take free ones.
      const asked = options.ports?.[service];
      for (let index = 0; index < replicas[service]; index++)
        ports[service].push(index === 0 && asked ? asked : await freePort());
    }
    const urls = (service: ServiceName) => ports[service].map(url).join(',');
    const given = Object.entries(env).filter(
      (e): e is [string, string] => e[1] !== undefined,
    );
    const common = {
      ...Object.fromEntries(given),
      HOST: '127.0.0.1',
      MONGODB_URI: database.uri,
    };
    // Pets and the store send their events to the gateways, for webhooks.
    const extra: Record<ServiceName, (port: number) => Record<string, string>> =
      {
        pets: () => ({ GATEWAY_URL: urls('gateway') }),
        store: () => ({ PETS_URL: urls('pets'), GATEWAY_URL: urls('gateway') }),
        gateway: (port) => ({
          HOST: env.HOST ?? '127.0.0.1',
          PETS_URL: urls('pets'),
          STORE_URL: urls('store'),
          ADMIN_API_KEY: secrets.adminApiKey,
          PUBLIC_URL: env.PUBLIC_URL ?? url(port),
        }),
      };
    for (const service of SERVICES) {
      processes[service] = await Promise.all(
        ports[service].map(async (port, index) => {
          const metricsPort =
            options.metrics === false ? undefined : await freePort();
          const own = {
            PORT: String(port),
            INTERNAL_TOKEN: secrets.internalToken,
            ...(metricsPort && { METRICS_PORT: String(metricsPort) }),
          };
          return new ServiceProcess({
            name: replicas[service] === 1 ? service : `${service}-${index + 1}`,
            entry: join(
              import.meta.dirname,
              `../../../services/${service}/dist/main.js`,
            ),
            nodeArgs: options.nodeArgs?.[service],
            env: { ...common, ...extra[service](port), ...own },
            url: url(port),
            metricsUrl:
              metricsPort === undefined
                ? undefined
                : `${url(metricsPort)}/metrics`,
            stdio: options.stdio ?? 'inherit',
            onOutput: options.onOutput,
          });
        }),
      );
      await Promise.all(processes[service].map((process) => process.start()));
    }
    const first = (service: ServiceName) => processes[service][0]!;
    return {
      url: first('gateway').url,
      pets: first('pets'),
      store: first('store'),
      gateway: first('gateway'),
      ...secrets,
      database,
      replicas: processes,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
