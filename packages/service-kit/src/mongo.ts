import {
  MongoBulkWriteError,
  MongoClient,
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { reconnectWhenMonitorHangs } from './hung-monitor.js';
import { metricsEnabled } from './telemetry/metrics.js';
import { monitorMongoCommands } from './telemetry/mongo-telemetry.js';
import { tracingEnabled } from './telemetry/tracing.js';

export interface ConnectMongoOptions {
  /** Shows in the server's logs and `currentOp`, e.g. the service name. */
  appName: string;
  /** How long to look for a server or open a socket before failing; keeps an outage fast. */
  timeoutMs?: number;
}

/**
 * A connected client that fails within `timeoutMs` rather than hanging when the database is down,
 * and that reconnects by itself when the driver's server monitor hangs (see `hung-monitor.ts`).
 */
export async function connectMongo(
  uri: string,
  { appName, timeoutMs = 2_000 }: ConnectMongoOptions,
): Promise<MongoClient> {
  const observed = { spans: tracingEnabled(), durations: metricsEnabled() };
  const options = {
    appName,
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    // Only when something listens: each command then costs two events.
    monitorCommands: observed.spans || observed.durations,
  };
  const client = await new MongoClient(uri, options).connect();
  if (options.monitorCommands) monitorMongoCommands(client, observed);
  // A heartbeat lasts at most a connect and a `hello`, each bounded by the connect timeout.
  reconnectWhenMonitorHangs(client, { hungAfterMs: 2 * timeoutMs + 1_000, retryMs: timeoutMs });
  return client;
}

/**
 * Server answers that mean it cannot serve now (shutting down, not primary, stepping down, a
 * network failure of its own), as MongoDB's retryable errors list them.
 */
const UNAVAILABLE_CODES = new Set([
  6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436,
]);

/** True when the error means the database cannot be reached, as opposed to a failed query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoClientClosedError
  ) {
    return true;
  }
  if (!(error instanceof MongoError)) return false;
  if (
    error.hasErrorLabel(MongoErrorLabel.RetryableWriteError) ||
    error.hasErrorLabel(MongoErrorLabel.ResetPool) ||
    UNAVAILABLE_CODES.has(Number(error.code))
  ) {
    return true;
  }
  // A bulk write that failed as a whole, no document refused and no code from the server: the
  // driver wraps a lost or refused connection so, keeping only its message.
  return (
    error instanceof MongoBulkWriteError &&
    error.code === undefined &&
    [error.writeErrors].flat().length === 0
  );
}
