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

export const tracer = trace.getTracer('petstore');
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let enabled = false;

export const tracingEnabled = (): boolean => enabled;

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
  enabled = true;
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
  if (!enabled) return work(UNRECORDED);
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

export { SpanKind };
