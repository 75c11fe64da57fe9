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

/**
 * What `load` returns; when it throws, as `loadConfig` does on a bad environment, writes the
 * message to stderr and exits 1. The message names every bad variable; a stack trace would add
 * nothing to it.
 */
export function loadOrExit<Config>(load: () => Config): Config {
  try {
    return load();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/** `schema` for a variable that counts as unset when empty (`PORT=`), so defaults apply to it too. */
export function unsetWhenEmpty<Schema extends z.ZodTypeAny>(schema: Schema) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

/** A TCP port, 0–65535. */
export function envPort(defaultPort?: number) {
  const port = z
    .string()
    .regex(/^\d{1,5}$/, 'Expected a port number (0–65535)')
    .transform(Number)
    .refine((value) => value <= 65_535, 'Expected a port number (0–65535)');
  return unsetWhenEmpty(defaultPort === undefined ? port : port.default(String(defaultPort)));
}

/** The address to listen on; loopback unless told otherwise. */
export function envHost(defaultHost = '127.0.0.1') {
  return unsetWhenEmpty(z.string().default(defaultHost));
}

export function envLogLevel(defaultLevel: (typeof LOG_LEVELS)[number] = 'info') {
  return unsetWhenEmpty(z.enum(LOG_LEVELS).default(defaultLevel));
}

export function envMongoUri(defaultUri?: string) {
  const uri = z
    .string()
    .regex(/^mongodb(\+srv)?:\/\/\S+$/, 'Expected a mongodb:// or mongodb+srv:// URI');
  return unsetWhenEmpty(defaultUri === undefined ? uri : uri.default(defaultUri));
}

function envMongoDatabase(defaultName: string) {
  return unsetWhenEmpty(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/, 'Expected a database name (letters, digits, _ and -)')
      .default(defaultName),
  );
}

/** The secret the gateway and the services present as `x-internal-token`; required. */
function envInternalToken() {
  return unsetWhenEmpty(z.string().min(32, 'Expected at least 32 characters'));
}

/** A whole number from `min` to `max`. */
export function envInteger(defaultValue: number, { min, max }: { min: number; max: number }) {
  const message = `Expected a whole number from ${min} to ${max}`;
  return unsetWhenEmpty(
    z
      .string()
      .regex(/^\d{1,15}$/, message)
      .transform(Number)
      .refine((value) => value >= min && value <= max, message)
      .default(String(defaultValue)),
  );
}

/** An ISO 8601 date-time with its offset, e.g. `2030-01-01T00:00:00Z`, as a Date. */
export function envInstant(defaultValue: string) {
  return unsetWhenEmpty(
    z
      .string()
      .datetime({
        offset: true,
        message: 'Expected an ISO 8601 date-time, e.g. 2030-01-01T00:00:00Z',
      })
      .default(defaultValue)
      .transform((value) => new Date(value)),
  );
}

const httpUrl = z
  .string()
  .url('Expected an http:// or https:// URL')
  .refine((value) => /^https?:\/\//.test(value), 'Expected an http:// or https:// URL')
  .transform((value) => value.replace(/\/+$/, ''));

/** An http:// or https:// URL, without its trailing slashes. */
export function envHttpUrl(defaultUrl: string) {
  return unsetWhenEmpty(httpUrl.default(defaultUrl));
}

/** As `envHttpUrl`, undefined when unset. */
export function envOptionalHttpUrl() {
  return unsetWhenEmpty(httpUrl.optional());
}

/** The variables every service reads: where it listens, its database, the token, its log level. */
export function serviceEnv({ port, database }: { port: number; database: string }) {
  return {
    PORT: envPort(port),
    HOST: envHost(),
    MONGODB_URI: envMongoUri('mongodb://127.0.0.1:27017'),
    MONGODB_DB: envMongoDatabase(database),
    INTERNAL_TOKEN: envInternalToken(),
    LOG_LEVEL: envLogLevel(),
  };
}

export type ServiceEnv = z.output<z.ZodObject<ReturnType<typeof serviceEnv>>>;

/** The variables of `serviceEnv`, nested as every service's config has them. */
export function serviceConfig(env: ServiceEnv) {
  return {
    http: { host: env.HOST, port: env.PORT },
    mongo: { uri: env.MONGODB_URI, database: env.MONGODB_DB },
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
  };
}
