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
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

const tracer = trace.getTracer('petstore');
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let enabled = false;

/** Whether spans are recorded in this process. */
export function tracingEnabled(): boolean {
  return enabled;
}

/**
 * Records spans and exports them over OTLP/HTTP when the standard variables ask for it
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; `OTEL_SERVICE_NAME`,
 * `OTEL_TRACES_SAMPLER`, … as the SDK reads them). Otherwise nothing is recorded: the API stays
 * the no-op it is by default. Answers how to flush and stop, or undefined when off.
 */
export function startTracing(
  service: string,
  env: NodeJS.ProcessEnv = process.env,
): (() => Promise<void>) | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME || service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The W3C trace context propagator and an AsyncLocalStorage context manager.
  provider.register();
  enabled = true;
  return () => provider.shutdown();
}

/** The trace context of `headers` (`traceparent`, `tracestate`), or the active one without. */
export function contextFrom(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), headers);
}

/** `headers` plus the active trace context, as `traceparent` (and `tracestate`). */
export function withTraceContext<Headers extends Record<string, string | string[]>>(
  headers: Headers,
  from: Context = context.active(),
): Headers {
  propagation.inject(from, headers);
  return headers;
}

/** The active trace context as a `traceparent` value, to store with work done later. */
export function currentTraceparent(): string | undefined {
  return withTraceContext<Record<string, string>>({}).traceparent;
}

/**
 * Runs `work` in a span of its own (a child of `parent`, the active context by default); the span
 * ends when the work does, marked as an error if it threw.
 */
export function inSpan<T>(
  name: string,
  { kind = SpanKind.INTERNAL, attributes, parent }: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  // Untraced, a span would only cost: the work runs as it is.
  if (!enabled) return work(UNRECORDED);
  return tracer.startActiveSpan(
    name,
    { kind, attributes },
    parent ?? context.active(),
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

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  parent?: Context;
}

export { SpanKind };
