import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SECRET_HEADERS = [
  'authorization',
  'x-internal-token',
  'x-api-key',
  'cookie',
  'set-cookie',
];
// Censored wherever they sit, up to four levels deep (e.g. `req.headers.authorization`).
const REDACTED_PATHS = [
  ...SECRET_HEADERS,
  'apiKey',
  'token',
  'password',
].flatMap((key) =>
  ['', '*', '*.*', '*.*.*'].map(
    (prefix) => `${prefix}[${JSON.stringify(key)}]`,
  ),
);

const IDENTIFYING_FIELDS = ['code', 'codeName', 'errno', 'syscall', 'status'];
const CAUSE_DEPTH = 3;

// Only these fields: an HTTP parse error carries the raw packet, a driver error its connection
// state with cycles, and logging must neither throw nor leak what those contain.
function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error))
    return { type: typeof error, message: String(error) };
  const fields = error as unknown as Record<string, unknown>;
  const line: Record<string, unknown> = {
    type: error.name,
    message: error.message,
  };
  for (const field of IDENTIFYING_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number')
      line[field] = value;
  }
  line.stack = error.stack;
  if (error.cause !== undefined && depth < CAUSE_DEPTH) {
    line.cause = serializeError(error.cause, depth + 1);
  }
  return line;
}

function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export function createLogger({
  name,
  level,
  destination,
}: {
  name: string;
  level: LogLevel;
  destination?: DestinationStream;
}): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}
