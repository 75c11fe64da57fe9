import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import type { Middleware } from 'koa';
import type {
  CommandFailedEvent,
  CommandSucceededEvent,
  MongoClient,
} from 'mongodb';
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';

export const tracer = trace.getTracer('petstore');
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let tracing = false;

export const tracingEnabled = (): boolean => tracing;

/**
 * On only when an `OTEL_EXPORTER_OTLP_*ENDPOINT` is set; returns how to flush and stop. The SDK
 * is loaded only then: without an exporter, tracing costs nothing but the API's no-op calls. It
 * reads the standard variables itself (`OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_TRACES_SAMPLER`,
 * `OTEL_BSP_*`, the span limits); it sends traces only, as metrics are Prometheus's and logs pino's.
 */
export async function startTracing(service: string) {
  const { env } = process;
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || service,
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  tracing = true;
  return () => sdk.shutdown();
}

export function contextFrom(
  headers: Record<string, string | string[] | undefined>,
): Context {
  return propagation.extract(context.active(), headers);
}

export function withTraceContext<
  Headers extends Record<string, string | string[]>,
>(headers: Headers, from: Context = context.active()): Headers {
  propagation.inject(from, headers);
  return headers;
}

export function currentTraceparent(): string | undefined {
  return withTraceContext<Record<string, string>>({}).traceparent;
}

export function inSpan<T>(
  name: string,
  {
    kind = SpanKind.INTERNAL,
    attributes,
    parent,
  }: Pick<SpanOptions, 'kind' | 'attributes'> & {
    parent?: Context;
  },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!tracing) return work(UNRECORDED);
  const from = parent ?? context.active();
  return tracer.startActiveSpan(
    name,
    { kind, attributes },
    from,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        if (error instanceof Error) span.recordException(error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

export const registry = new Registry();

const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

export const httpServerDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Duration of HTTP server requests.',
  labelNames: [
    'http_route',
    'http_request_method',
    'http_response_status_code',
  ] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

export const dbOperationDuration = new Histogram({
  name: 'db_client_operation_duration_seconds',
  help: 'Duration of database commands.',
  labelNames: [
    'db_system_name',
    'db_operation_name',
    'db_collection_name',
    'outcome',
  ] as const,
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
  help: 'Requests refused with 429 rate_limited, by limit (account or address).',
  labelNames: ['limit'] as const,
  registers: [registry],
});

/** Set while a gauge reads the database for a scrape: those commands are not the service's work. */
const scrapeReads = new AsyncLocalStorage<true>();

/** Read at each scrape: one value, or one per value of `label` (a value no longer read is dropped). */
export function databaseGauge(
  name: string,
  help: string,
  read: () => Promise<number | Record<string, number>>,
  { label }: { label?: string } = {},
): void {
  registry.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    labelNames: label === undefined ? [] : [label],
    registers: [registry],
    async collect() {
      const value = await scrapeReads.run(true, read);
      if (typeof value === 'number') {
        this.set(value);
        return;
      }
      this.reset();
      for (const [key, count] of Object.entries(value))
        this.set({ [label ?? '']: key }, count);
    },
  });
}

let metrics = false;
export const metricsEnabled = (): boolean => metrics;

/** Tracing from the `OTEL_*` variables; metrics on `metricsPort`, never the public port. */
export async function startTelemetry(
  service: string,
  host: string,
  metricsPort?: number,
) {
  const stopTracing = await startTracing(service);
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) =>
        res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  if (metricsPort !== undefined) {
    metrics = true;
    collectDefaultMetrics({ register: registry });
    await once(server.listen(metricsPort, host), 'listening').catch(
      async (error: unknown) => {
        await stopTracing?.();
        throw error;
      },
    );
  }
  return {
    async close() {
      if (server.listening) await promisify(server.close.bind(server))();
      await stopTracing?.();
    },
  };
}

// The route is the template the router matched, never the raw path.
export function serverTelemetry(): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const attributes = {
      'http.request.method': ctx.method,
      'url.path': ctx.path,
    };
    const parent = contextFrom(ctx.req.headers);
    const span = { kind: SpanKind.SERVER, parent, attributes };
    await inSpan(ctx.method, span, async (active) => {
      try {
        await next();
      } finally {
        const route = ctx.routeTemplate ?? 'unmatched';
        if (metrics) {
          const labels = {
            http_route: route,
            http_request_method: ctx.method,
            http_response_status_code: String(ctx.status),
          };
          httpServerDuration.observe(
            labels,
            (performance.now() - started) / 1000,
          );
        }
        active.updateName(`${ctx.method} ${route}`);
        active.setAttributes({
          'http.route': route,
          'http.response.status_code': ctx.status,
        });
      }
    });
  };
}

/** Records a command's name and collection, never its contents. */
export function monitorMongoCommands(
  client: MongoClient,
  { spans, durations }: { spans: boolean; durations: boolean },
): void {
  const open = new Map<number, { span?: Span; collection: string }>();
  client.on('commandStarted', (event) => {
    if (scrapeReads.getStore()) return;
    const named: unknown = event.command[event.commandName];
    const collection = typeof named === 'string' ? named : '';
    const span = spans
      ? tracer.startSpan(`${event.commandName} ${collection}`.trim(), {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.system.name': 'mongodb',
            'db.operation.name': event.commandName,
            'db.collection.name': collection,
            'db.namespace': event.databaseName,
          },
        })
      : undefined;
    open.set(event.requestId, { span, collection });
  });
  const finish = (
    event: CommandSucceededEvent | CommandFailedEvent,
    outcome: string,
  ) => {
    const started = open.get(event.requestId);
    open.delete(event.requestId);
    if (!started) return;
    if (outcome === 'error')
      started.span?.setStatus({ code: SpanStatusCode.ERROR });
    started.span?.end();
    if (!durations) return;
    const labels = {
      db_system_name: 'mongodb',
      db_operation_name: event.commandName,
      db_collection_name: started.collection,
      outcome,
    };
    dbOperationDuration.observe(labels, event.duration / 1000);
  };
  client.on('commandSucceeded', (event) => {
    finish(event, 'success');
  });
  client.on('commandFailed', (event) => {
    finish(event, 'error');
  });
}

export { SpanKind };
