import { pino, type DestinationStream, type Logger } from 'pino';
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

/** JSON lines on stdout (pretty when stdout is a terminal), with secrets redacted. */
export function createLogger({ name, level, destination }: LoggerOptions): Logger {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (destination) return pino(options, destination);
  return process.stdout.isTTY ? pino(options, pretty()) : pino(options);
}
