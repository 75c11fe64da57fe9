import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  STATUS_CODES,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  apiVersion,
  errorStatus,
  type ErrorBody,
  type ErrorCode,
} from '@petstore/contract';
import type Koa from 'koa';
import type { Db, MongoClient } from 'mongodb';
import type { ServiceConfig } from './config.js';
import { draining } from './health.js';
import { createLogger, type Logger } from './logger.js';
import { connectMongo } from './mongo.js';
import { startTelemetry } from './telemetry/telemetry.js';

export type ShutdownHook = () => void | Promise<unknown>;

export interface RunServiceOptions {
  app: Koa;
  host: string;
  port: number;
  logger: Logger;
  onShutdown?: ShutdownHook[];
  /** How long `/ready` responds 503 before the server stops accepting: for load balancers. */
  drainMs?: number;
  gracePeriodMs?: number;
  signals?: NodeJS.Signals[];
}

export interface RunningService {
  server: Server;
  url: string;
  close: () => Promise<void>;
}

async function runHooks(hooks: ShutdownHook[], logger: Logger): Promise<void> {
  const failures: unknown[] = [];
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      logger.error({ err: error }, 'shutdown hook failed');
      failures.push(error);
    }
  }
  if (failures.length > 0)
    throw new AggregateError(failures, 'shutdown hooks failed');
}

const SERVER_OPTIONS = {
  // Longer than clients keep idle connections (undici: 4 s, load balancers: 60 s), so a client
  // never sends on a connection the server is about to close.
  keepAliveTimeout: 65_000,
  // A request, its headers and its body, must have come whole within 10 s of its first byte, or
  // it is answered 408 request_timeout; Node looks every second.
  headersTimeout: 10_000,
  requestTimeout: 10_000,
  connectionsCheckingInterval: 1_000,
  // Node answers a missing Host with a bare 400: the app answers it in the Error shape.
  requireHostHeader: false,
};

export async function runService(
  options: RunServiceOptions,
): Promise<RunningService> {
  const {
    app,
    host,
    port,
    logger,
    onShutdown = [],
    drainMs = 0,
    gracePeriodMs = 10_000,
    signals = ['SIGTERM', 'SIGINT'],
  } = options;
  const handle = app.callback();
  const server = createServer(
    SERVER_OPTIONS,
    (req, res) => void handle(req, res),
  );
  answerClientErrors(server, logger);
  // From the drain on, responses close their connection: clients reconnect to another replica.
  const open = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    if (draining.has(app)) res.shouldKeepAlive = false;
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  await once(server.listen(port, host), 'listening');
  const address = server.address() as AddressInfo;
  const hostname =
    address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostname}:${address.port}`;
  logger.info({ url }, 'listening');

  let stopped: Promise<void> | undefined;
  function close(): Promise<void> {
    stopped ??= (async () => {
      // A second signal gets Node's default behaviour: the process ends at once.
      for (const signal of signals) process.off(signal, onSignal);
      draining.add(app);
      for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
      if (drainMs > 0) {
        logger.info({ drainMs }, 'draining: not ready, still serving');
        await sleep(drainMs);
      }
      const cutOff = setTimeout(() => {
        server.closeAllConnections();
      }, gracePeriodMs);
      await new Promise((resolve) => server.close(resolve));
      clearTimeout(cutOff);
      await runHooks(onShutdown, logger);
      logger.info('stopped');
    })();
    return stopped;
  }
  function onSignal(signal: NodeJS.Signals) {
    logger.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
  for (const signal of signals) process.on(signal, onSignal);
  return { server, url, close };
}

type ParserError = Error & { code?: string; reason?: string };

const REFUSALS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    message: 'the request line and headers are larger than 16 KiB',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'the request did not arrive in time',
  },
};

// Node would send a bare 400, 408 or 431; the raw bytes, which may contain a key, are not logged.
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on(
    'clientError',
    (error: ParserError, socket: Duplex & { bytesWritten?: number }) => {
      // A client gone, or a response already started: nothing more can be sent.
      if (
        error.code === 'ECONNRESET' ||
        !socket.writable ||
        (socket.bytesWritten ?? 0) > 0
      ) {
        socket.destroy();
        return;
      }
      const reason = error.reason ?? error.code ?? 'unreadable';
      const { code, message } = REFUSALS[error.code ?? ''] ?? {
        code: 'malformed_request',
        message: `the request is not valid HTTP/1.1: ${reason}`,
      };
      const status = errorStatus[code];
      const requestId = randomUUID();
      logger.warn(
        { requestId, parserError: error.code, reason: error.reason },
        message,
      );
      const json = JSON.stringify({
        code,
        message,
        status,
        requestId,
      } satisfies ErrorBody);
      const head = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(json)}`,
        `API-Version: ${apiVersion}`,
        `X-Request-Id: ${requestId}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
      ];
      socket.end([...head, '', json].join('\r\n'));
    },
  );
}

export interface ServiceSetUp {
  database: { client: MongoClient; db: Db };
  logger: Logger;
  /** Runs `hook` on stop, or at once if the start fails later; last registered first. */
  onShutdown: (hook: ShutdownHook) => void;
}

export interface StartServiceOptions {
  name: string;
  config: ServiceConfig;
  logger?: Logger;
  signals?: NodeJS.Signals[];
  port?: number;
  setUp: (
    setUp: ServiceSetUp,
  ) => Promise<{ app: Koa; onListening?: () => void }>;
}

export type StartOptions = Pick<
  StartServiceOptions,
  'logger' | 'signals' | 'port'
>;

export interface StartedService extends AsyncDisposable {
  url: string;
  close(): Promise<void>;
}

// If a step fails, what the steps before it opened is closed again.
export async function startService(
  options: StartServiceOptions,
): Promise<StartedService> {
  const { name, config, signals, port = config.http.port, setUp } = options;
  const logger =
    options.logger ?? createLogger({ name, level: config.logLevel });
  const { host } = config.http;
  const telemetry = await startTelemetry(name, host, config.metrics.port);
  const hooks: ShutdownHook[] = [() => telemetry.close()];
  const onShutdown = (hook: ShutdownHook) => void hooks.unshift(hook);
  try {
    const client = await connectMongo(config.mongo.uri, { appName: name });
    onShutdown(() => client.close());
    const database = { client, db: client.db(config.mongo.database) };
    const { app, onListening } = await setUp({ database, logger, onShutdown });
    const running = await runService({
      app,
      ...config.http,
      port,
      logger,
      signals,
      onShutdown: hooks,
    });
    onListening?.();
    const { url, close } = running;
    return { url, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    // Each failure is logged; the error that stopped the start is the one to throw.
    await runHooks(hooks, logger).catch(() => undefined);
    throw error;
  }
}
