import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './logger.js';

export type Env = Record<string, string | undefined>;

/** On failure the message names every bad variable, never its value (it may be a secret). */
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

export function loadOrExit<Config>(load: () => Config): Config {
  try {
    return load();
  } catch (error) {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}

/** A variable set empty (`PORT=`) counts as unset, so defaults apply to it too. */
export function unsetWhenEmpty<Schema extends z.ZodTypeAny>(schema: Schema) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

function wholeNumber(
  digits: number,
  message: string,
  inRange: (value: number) => boolean,
) {
  return z
    .string()
    .regex(new RegExp(`^\\d{1,${digits}}$`), message)
    .transform(Number)
    .refine(inRange, message);
}

export function envPort(defaultPort?: number) {
  const port = wholeNumber(
    5,
    'Expected a port number (0–65535)',
    (value) => value <= 65_535,
  );
  return unsetWhenEmpty(
    defaultPort === undefined ? port : port.default(String(defaultPort)),
  );
}

export const envHost = (host = '127.0.0.1') =>
  unsetWhenEmpty(z.string().default(host));

export function envLogLevel(defaultLevel: LogLevel = 'info') {
  return unsetWhenEmpty(z.enum(LOG_LEVELS).default(defaultLevel));
}

export function envMongoUri(defaultUri?: string) {
  const message = 'Expected a mongodb:// or mongodb+srv:// URI';
  const uri = z.string().regex(/^mongodb(\+srv)?:\/\/\S+$/, message);
  return unsetWhenEmpty(
    defaultUri === undefined ? uri : uri.default(defaultUri),
  );
}

export function envInteger(
  defaultValue: number,
  { min, max }: { min: number; max: number },
) {
  const message = `Expected a whole number from ${min} to ${max}`;
  const inRange = (value: number) => value >= min && value <= max;
  return unsetWhenEmpty(
    wholeNumber(15, message, inRange).default(String(defaultValue)),
  );
}

export function envInstant(defaultValue: string) {
  const message = 'Expected an ISO 8601 date-time, e.g. 2030-01-01T00:00:00Z';
  const instant = z
    .string()
    .datetime({ offset: true, message })
    .default(defaultValue);
  return unsetWhenEmpty(instant.transform((value) => new Date(value)));
}

const isHttpUrl = (value: string) =>
  URL.canParse(value) && /^https?:\/\//.test(value);
const httpUrl = z
  .string()
  .refine(isHttpUrl, 'Expected an http:// or https:// URL')
  .transform((value) => value.replace(/\/+$/, ''));

export const envOptionalHttpUrl = () => unsetWhenEmpty(httpUrl.optional());

export function envHttpUrls(defaultUrl: string) {
  const urls = z.string().default(defaultUrl);
  const list = urls.transform((value) =>
    value.split(',').map((url) => url.trim()),
  );
  return unsetWhenEmpty(list.pipe(z.array(httpUrl).min(1)));
}

export function serviceEnv({
  port,
  database,
}: {
  port: number;
  database: string;
}) {
  const message = 'Expected a database name (letters, digits, _ and -)';
  const databaseName = z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/, message)
    .default(database);
  return {
    PORT: envPort(port),
    HOST: envHost(),
    MONGODB_URI: envMongoUri('mongodb://127.0.0.1:27017'),
    MONGODB_DB: unsetWhenEmpty(databaseName),
    INTERNAL_TOKEN: unsetWhenEmpty(
      z.string().min(32, 'Expected at least 32 characters'),
    ),
    LOG_LEVEL: envLogLevel(),
    SHUTDOWN_DRAIN_MS: envInteger(0, { min: 0, max: 120_000 }),
    METRICS_PORT: envPort().optional(),
  };
}

export type ServiceEnv = z.output<z.ZodObject<ReturnType<typeof serviceEnv>>>;

export function serviceConfig(env: ServiceEnv) {
  return {
    http: { host: env.HOST, port: env.PORT, drainMs: env.SHUTDOWN_DRAIN_MS },
    mongo: { uri: env.MONGODB_URI, database: env.MONGODB_DB },
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    metrics: { port: env.METRICS_PORT },
  };
}

export type ServiceConfig = ReturnType<typeof serviceConfig>;

export const eventsEnv = {
  GATEWAY_URL: envHttpUrls('http://127.0.0.1:8080'),
  EVENT_RELAY_INTERVAL_MS: envInteger(5_000, { min: 10, max: 3_600_000 }),
};

export type EventsEnv = z.output<z.ZodObject<typeof eventsEnv>>;

export function eventsConfigOf(env: EventsEnv) {
  return {
    gateway: { urls: env.GATEWAY_URL },
    events: { relayIntervalMs: env.EVENT_RELAY_INTERVAL_MS },
  };
}
