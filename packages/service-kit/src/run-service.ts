import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { answerClientErrors } from './client-errors.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDraining } from './draining.js';
import type { Logger } from './logger.js';

export type ShutdownHook = () => void | Promise<unknown>;

export interface RunServiceOptions {
  app: Koa;
  host: string;
  /** 0 picks a free port; `url` tells which. */
  port: number;
  logger: Logger;
  /** Run in order once the server has stopped, e.g. `() => client.close()`. */
  onShutdown?: ShutdownHook[];
  /**
   * How long `/ready` answers 503 while requests are still served, before the server stops
   * accepting: the time a load balancer needs to take the process out of rotation.
   */
  drainMs?: number;
  /** How long in-flight requests may take to finish before their connections are cut. */
  gracePeriodMs?: number;
  /** Signals that shut down and then exit the process (1 if a hook failed); `[]` for none. */
  signals?: NodeJS.Signals[];
}

export interface RunningService {
  server: Server;
  url: string;
  /**
   * Answers `/ready` 503 for the drain delay while still serving, then stops accepting, lets
   * in-flight requests finish (up to the grace period), then runs the shutdown hooks; rejects if
   * one failed. What a signal does, minus the exit.
   */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Node keeps idle keep-alive connections open; from the drain on, every response closes its own,
 * so that clients open new connections (to another replica) rather than reuse one that is about
 * to be closed.
 */
function trackResponses(server: Server) {
  const open = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return function drain() {
    draining = true;
    for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
  };
}

function stopServer(server: Server, gracePeriodMs: number): Promise<void> {
  return new Promise((resolve) => {
    const cutOff = setTimeout(() => server.closeAllConnections(), gracePeriodMs);
    server.close(() => {
      clearTimeout(cutOff);
      resolve();
    });
  });
}

/** Runs `hooks` in order, each even if one before it failed; rejects if any failed. */
export async function runHooks(hooks: ShutdownHook[], logger: Logger): Promise<void> {
  const failures: unknown[] = [];
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      logger.error({ err: error }, 'shutdown hook failed');
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, 'shutdown hooks failed');
}

const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Listens on `host:port` and shuts down gracefully on `close()` or one of `signals`. */
export async function runService({
  app,
  host,
  port,
  logger,
  onShutdown = [],
  drainMs = 0,
  gracePeriodMs = 10_000,
  signals = ['SIGTERM', 'SIGINT'],
}: RunServiceOptions): Promise<RunningService> {
  const handle = app.callback();
  const server = createServer(
    // Idle keep-alive connections stay open longer than clients keep theirs (undici: 4 s, load
    // balancers: 60 s), so a client never sends on a connection the server is just closing.
    { keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, headersTimeout: KEEP_ALIVE_TIMEOUT_MS + 1_000 },
    (req, res) => void handle(req, res),
  );
  answerClientErrors(server, logger);
  const drain = trackResponses(server);
  const address = await listen(server, port, host);
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostname}:${address.port}`;
  logger.info({ url }, 'listening');

  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      // From now on a second signal gets Node's default behaviour: the process ends at once.
      for (const signal of signals) process.off(signal, onSignal);
      startDraining(app);
      drain();
      if (drainMs > 0) {
        logger.info({ drainMs }, 'draining: not ready, still serving');
        await sleep(drainMs);
      }
      await stopServer(server, gracePeriodMs);
      await runHooks(onShutdown, logger);
      logger.info('stopped');
    })();
    return closing;
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
