import {
  MongoClient,
  MongoClientClosedError,
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

/** True when the error means the database cannot be reached, as opposed to a failed query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoClientClosedError
  );
}
