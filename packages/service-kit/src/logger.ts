import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  name: string;
  level: LogLevel;
  /** Where lines go instead of stdout, e.g. a stream that collects them in a test. */
  destination?: DestinationStream;
}

const SECRET_KEYS = [
  'authorization',
  'x-internal-token',
  'x-api-key',
  'cookie',
  'set-cookie',
  'apiKey',
  'token',
  'password',
];

// Secrets are censored wherever they sit in a logged object, up to four levels deep
// (e.g. `req.headers.authorization`).
const REDACTED_PATHS = SECRET_KEYS.flatMap((key) =>
  ['', '*', '*.*', '*.*.*'].map((prefix) => `${prefix}[${JSON.stringify(key)}]`),
);

/** The fields that identify an error beyond its message (Node's system errors, MongoDB's). */
const IDENTIFYING_FIELDS = ['code', 'codeName', 'errno', 'syscall', 'status'];
const CAUSE_DEPTH = 3;

/**
 * An error as a log line needs it: type, message, identifying fields, stack, and its causes.
 * Nothing else of the error object is walked (an HTTP parse error carries the raw packet as a
 * Buffer, a driver error its connection state, with cycles), so logging can neither throw, lose
 * the cause to an unserialisable graph, nor leak what those objects hold.
 */
function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const fields = error as unknown as Record<string, unknown>;
  const line: Record<string, unknown> = { type: error.name, message: error.message };
  for (const field of IDENTIFYING_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number') line[field] = value;
  }
  line.stack = error.stack;
  if (error.cause !== undefined && depth < CAUSE_DEPTH) {
    line.cause = serializeError(error.cause, depth + 1);
  }
  return line;
}

/** The trace and span a line was written in, so logs and traces join up; nothing untraced. */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * JSON lines on stdout, with secrets redacted: always JSON, terminal or not, so that whatever
 * collects them can read them (`pnpm start` makes them readable for a person at a terminal).
 */
export function createLogger({ name, level, destination }: LoggerOptions): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    mixin: traceFields,
  };
  if (destination) return pino(options, destination);
  return pino(options);
}
