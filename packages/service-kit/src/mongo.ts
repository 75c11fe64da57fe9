import { setTimeout as sleep } from 'node:timers/promises';
import {
  MongoBulkWriteError,
  MongoClient,
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type ServerHeartbeatStartedEvent,
} from 'mongodb';
import {
  metricsEnabled,
  monitorMongoCommands,
  tracingEnabled,
} from './telemetry/telemetry.js';

export async function connectMongo(
  uri: string,
  { appName, timeoutMs = 2_000 }: { appName: string; timeoutMs?: number },
): Promise<MongoClient> {
  const observed = { spans: tracingEnabled(), durations: metricsEnabled() };
  // Each monitored command costs two events: only when something listens.
  const monitorCommands = observed.spans || observed.durations;
  const timeouts = {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
  };
  // Every write is acknowledged once a majority of the replica set has it in its journal.
  const writeConcern = { w: 'majority' as const, journal: true };
  const client = await new MongoClient(uri, {
    appName,
    ...timeouts,
    monitorCommands,
    writeConcern,
  }).connect();
  if (monitorCommands) monitorMongoCommands(client, observed);
  // A heartbeat lasts at most a connect and a `hello`, each bounded by the connect timeout.
  reconnectWhenMonitorHangs(client, 2 * timeoutMs + 1_000, timeoutMs);
  return client;
}

// The driver (mongodb 6.22, 7.9) can start a heartbeat just as a restarting server closes its
// connection; that heartbeat never ends and every operation then fails server selection until the
// process restarts. A polling heartbeat past `hungAfterMs` is that case: the client reconnects.
function reconnectWhenMonitorHangs(
  client: MongoClient,
  hungAfterMs: number,
  retryMs: number,
) {
  let checkStartedAt: number | undefined;
  let reconnecting: Promise<void> | undefined;
  let stopped = false;
  client.on('serverHeartbeatStarted', (event: ServerHeartbeatStartedEvent) => {
    checkStartedAt = event.awaited ? undefined : Date.now();
  });
  const checkEnded = () => {
    checkStartedAt = undefined;
  };
  client.on('serverHeartbeatSucceeded', checkEnded);
  client.on('serverHeartbeatFailed', checkEnded);

  const close = client.close.bind(client);
  const reconnect = async () => {
    while (!stopped) {
      try {
        await close();
        if (!stopped) await client.connect();
        return;
      } catch {
        await sleep(retryMs);
      }
    }
  };
  const check = () => {
    if (reconnecting || checkStartedAt === undefined) return;
    if (Date.now() - checkStartedAt < hungAfterMs) return;
    checkStartedAt = undefined;
    reconnecting = reconnect().finally(() => {
      reconnecting = undefined;
    });
  };
  const timer = setInterval(check, Math.min(hungAfterMs, retryMs)).unref();
  // The owner's close ends the watch, and no reconnect undoes it.
  client.close = async (...args: Parameters<MongoClient['close']>) => {
    stopped = true;
    clearInterval(timer);
    await reconnecting;
    await close(...args);
  };
}

/** MongoDB's retryable codes: the server cannot serve now (shutting down, not primary, …). */
const UNAVAILABLE_CODES = new Set([
  6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436,
]);

const UNREACHABLE = [
  MongoServerSelectionError,
  MongoNetworkError,
  MongoTopologyClosedError,
  MongoNotConnectedError,
  MongoClientClosedError,
];

/**
 * Socket errors the driver (6.22) can throw unwrapped: a command written to a connection the
 * database has just closed fails with Node's own EPIPE.
 */
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (UNREACHABLE.some((type) => error instanceof type)) return true;
  if (
    SOCKET_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '')
  )
    return true;
  if (!(error instanceof MongoError)) return false;
  const { RetryableWriteError, ResetPool } = MongoErrorLabel;
  if (
    error.hasErrorLabel(RetryableWriteError) ||
    error.hasErrorLabel(ResetPool)
  )
    return true;
  if (UNAVAILABLE_CODES.has(Number(error.code))) return true;
  // The driver wraps a lost connection during a bulk write so: no code, no document refused.
  return (
    error instanceof MongoBulkWriteError &&
    error.code === undefined &&
    [error.writeErrors].flat().length === 0
  );
}

/** MongoDB refused a write for a value a unique index already has. */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}
