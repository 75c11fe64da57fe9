import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

export const tracer = trace.getTracer('petstore');
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let enabled = false;

export const tracingEnabled = (): boolean => enabled;

/**
 * OTLP over HTTP as `OTEL_EXPORTER_OTLP_PROTOCOL` asks: protobuf, the standard's default, which
 * costs a traced request less to encode and send than JSON; or JSON.
 */
function exporterOf(env: NodeJS.ProcessEnv) {
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (protocol === 'http/protobuf') return import('@opentelemetry/exporter-trace-otlp-proto');
  if (protocol === 'http/json') return import('@opentelemetry/exporter-trace-otlp-http');
  throw new Error(
    `[telemetry] OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, not ${protocol}`,
  );
}

/**
 * On only when an `OTEL_EXPORTER_OTLP_*ENDPOINT` is set; returns how to flush and stop. The SDK
 * is loaded only then: without an exporter, tracing costs nothing but the API's no-op calls.
 */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env) {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return undefined;
  const [{ OTLPTraceExporter }, { registerTracing }] = await Promise.all([
    exporterOf(env),
    import('./tracing-sdk.js'),
  ]);
  const provider = registerTracing(env.OTEL_SERVICE_NAME || service, new OTLPTraceExporter());
  enabled = true;
  return () => provider.shutdown();
}

export function contextFrom(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), headers);
}

export function withTraceContext<Headers extends Record<string, string | string[]>>(
  headers: Headers,
  from: Context = context.active(),
): Headers {
  propagation.inject(from, headers);
  return headers;
}

export function currentTraceparent(): string | undefined {
  return withTraceContext<Record<string, string>>({}).traceparent;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  parent?: Context;
}

export function inSpan<T>(
  name: string,
  { kind = SpanKind.INTERNAL, attributes, parent }: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!enabled) return work(UNRECORDED);
  const from = parent ?? context.active();
  return tracer.startActiveSpan(name, { kind, attributes }, from, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      if (error instanceof Error) span.recordException(error);
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };
