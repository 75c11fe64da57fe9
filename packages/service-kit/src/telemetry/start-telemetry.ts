import type { Server } from 'node:http';
import { startMetricsServer } from './metrics.js';
import { startTracing } from './tracing.js';

export interface Telemetry {
  /** Where `/metrics` answers, when metrics are on. */
  metricsUrl?: string;
  /** Flushes the spans not yet exported and stops the metrics server. */
  close(): Promise<void>;
}

/**
 * What makes a service observable, in one call before anything else starts: traces over OTLP
 * when the standard `OTEL_*` variables ask for them, and Prometheus metrics on `metricsPort` when
 * one is given (never on the service's own port, so the gateway's public routes never show them).
 */
export async function startTelemetry({
  service,
  host,
  metricsPort,
}: {
  service: string;
  host: string;
  metricsPort?: number;
}): Promise<Telemetry> {
  const stopTracing = startTracing(service);
  let server: Server | undefined;
  try {
    if (metricsPort !== undefined) server = await startMetricsServer(host, metricsPort);
  } catch (error) {
    await stopTracing?.();
    throw error;
  }
  const address = server?.address();
  return {
    metricsUrl:
      address && typeof address === 'object' ? `http://${host}:${address.port}/metrics` : undefined,
    async close() {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await stopTracing?.();
    },
  };
}
