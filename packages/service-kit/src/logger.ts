import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

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

/** How deep a serialized error is searched for binary values: past the redaction's own walk. */
const BINARY_SEARCH_DEPTH = 6;

/**
 * `value` with every Buffer, typed array or ArrayBuffer in it written as `[binary: N bytes]`,
 * copying only what changes. The redaction walks logged objects with `for…in`, which throws on a
 * Buffer's prototype getters; a log line has no use for raw bytes anyway.
 */
function withoutBinary(value: unknown, depth = 0): unknown {
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return `[binary: ${value.byteLength} bytes]`;
  }
  if (depth >= BINARY_SEARCH_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => withoutBinary(item, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const entries = Object.entries(value);
  const cleaned = entries.map(([key, item]) => [key, withoutBinary(item, depth + 1)] as const);
  if (cleaned.every(([, item], index) => item === entries[index]?.[1])) return value;
  // Same prototype, same own enumerable properties: the same JSON, binary values aside.
  return Object.assign(Object.create(Object.getPrototypeOf(value) as object | null) as object, {
    ...Object.fromEntries(cleaned),
  });
}

/**
 * pino's error serializer, binary values aside: an HTTP parse error, for one, carries the raw
 * packet as a Buffer, and logging it must not throw.
 */
function serializeError(error: Error): unknown {
  return withoutBinary(stdSerializers.err(error));
}

/** JSON lines on stdout (pretty when stdout is a terminal), with secrets redacted. */
export function createLogger({ name, level, destination }: LoggerOptions): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  if (destination) return pino(options, destination);
  return process.stdout.isTTY ? pino(options, pretty()) : pino(options);
}
