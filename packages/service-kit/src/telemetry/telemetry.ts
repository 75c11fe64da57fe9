import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { Server } from 'node:http';
import type { Middleware } from 'koa';
import type { CommandFailedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';
import {
  dbOperationDuration,
  httpServerDuration,
  metricsEnabled,
  scrapeReads,
  startMetricsServer,
} from './metrics.js';
import { contextFrom, inSpan, startTracing, tracer, tracingEnabled } from './tracing.js';

export interface Telemetry {
  metricsUrl?: string;
  close(): Promise<void>;
}

export async function startTelemetry(
  service: string,
  host: string,
  metricsPort: number | undefined,
): Promise<Telemetry> {
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

// The route is the template the router matched, never the raw path.
export function serverTelemetry(): Middleware {
  return async (ctx, next) => {
    const tracing = tracingEnabled();
    const measuring = metricsEnabled();
    const started = performance.now();
    const handle = async (span?: Span) => {
      try {
        await next();
      } finally {
        const route = ctx.routeTemplate ?? 'unmatched';
        if (measuring) {
          const labels = {
            http_route: route,
            http_request_method: ctx.method,
            http_response_status_code: String(ctx.status),
          };
          httpServerDuration.observe(labels, (performance.now() - started) / 1000);
        }
        span?.updateName(`${ctx.method} ${route}`);
        span?.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
      }
    };
    if (!tracing) return handle();
    const attributes = { 'http.request.method': ctx.method, 'url.path': ctx.path };
    const parent = contextFrom(ctx.req.headers);
    await inSpan(ctx.method, { kind: SpanKind.SERVER, parent, attributes }, handle);
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
  const finish = (event: CommandSucceededEvent | CommandFailedEvent, outcome: string) => {
    const started = open.get(event.requestId);
    open.delete(event.requestId);
    if (!started) return;
    if (outcome === 'error') started.span?.setStatus({ code: SpanStatusCode.ERROR });
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
  client.on('commandSucceeded', (event) => finish(event, 'success'));
  client.on('commandFailed', (event) => finish(event, 'error'));
}
