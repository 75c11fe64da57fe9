import { z } from 'zod';
import { LOG_LEVELS } from './logger.js';

export type Env = Record<string, string | undefined>;

/**
 * Parses the environment once with `schema`. On failure the message names every missing or
 * invalid variable (never its value, which may be a secret).
 */
export function loadConfig<Schema extends z.ZodTypeAny>(
  schema: Schema,
  env: Env = process.env,
): z.output<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data as z.output<Schema>;
  const lines = result.error.issues.map(
    (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
  );
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}

// An empty variable (`PORT=`) counts as unset, so defaults apply to it too.
function variable<Schema extends z.ZodTypeAny>(schema: Schema) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

/** A TCP port, 0–65535. */
export function envPort(defaultPort?: number) {
  const port = z
    .string()
    .regex(/^\d{1,5}$/, 'Expected a port number (0–65535)')
    .transform(Number)
    .refine((value) => value <= 65_535, 'Expected a port number (0–65535)');
  return variable(defaultPort === undefined ? port : port.default(String(defaultPort)));
}

/** The address to listen on; loopback unless told otherwise. */
export function envHost(defaultHost = '127.0.0.1') {
  return variable(z.string().default(defaultHost));
}

export function envLogLevel(defaultLevel: (typeof LOG_LEVELS)[number] = 'info') {
  return variable(z.enum(LOG_LEVELS).default(defaultLevel));
}

export function envMongoUri() {
  return variable(
    z.string().regex(/^mongodb(\+srv)?:\/\/\S+$/, 'Expected a mongodb:// or mongodb+srv:// URI'),
  );
}
