import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpServerDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Duration of HTTP server requests.',
  labelNames: ['http_route', 'http_request_method', 'http_response_status_code'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

export const dbOperationDuration = new Histogram({
  name: 'db_client_operation_duration_seconds',
  help: 'Duration of database commands.',
  labelNames: ['db_system_name', 'db_operation_name', 'db_collection_name', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

export const upstreamErrors = new Counter({
  name: 'petstore_upstream_errors_total',
  help: 'Calls to another service that failed: timeout, refused (unreachable) or bad_answer.',
  labelNames: ['service', 'kind'] as const,
  registers: [registry],
});

export const rateLimitRejections = new Counter({
  name: 'petstore_rate_limit_rejections_total',
  help: 'Requests refused with 429 rate_limited, by limit (key or address).',
  labelNames: ['limit'] as const,
  registers: [registry],
});

/** Set while a gauge reads the database for a scrape: those commands are not the service's work. */
export const scrapeReads = new AsyncLocalStorage<true>();

export function databaseGauge(name: string, help: string, read: () => Promise<number>): void {
  registry.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set(await scrapeReads.run(true, read));
    },
  });
}

let enabled = false;

export function metricsEnabled(): boolean {
  return enabled;
}

export async function startMetricsServer(host: string, port: number): Promise<Server> {
  enabled = true;
  collectDefaultMetrics({ register: registry });
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
