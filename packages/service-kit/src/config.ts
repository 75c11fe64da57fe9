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
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/** A variable set empty (`PORT=`) counts as unset, so defaults apply to it too. */
export function unsetWhenEmpty<Schema extends z.ZodTypeAny>(schema: Schema) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

function wholeNumber(digits: number, message: string, inRange: (value: number) => boolean) {
  return z
    .string()
    .regex(new RegExp(`^\\d{1,${digits}}$`), message)
    .transform(Number)
    .refine(inRange, message);
}

export function envPort(defaultPort?: number) {
  const port = wholeNumber(5, 'Expected a port number (0–65535)', (value) => value <= 65_535);
  return unsetWhenEmpty(defaultPort === undefined ? port : port.default(String(defaultPort)));
}

export function envHost(defaultHost = '127.0.0.1') {
  return unsetWhenEmpty(z.string().default(defaultHost));
}

export function envLogLevel(defaultLevel: LogLevel = 'info') {
  return unsetWhenEmpty(z.enum(LOG_LEVELS).default(defaultLevel));
}

export function envMongoUri(defaultUri?: string) {
  const uri = z
    .string()
    .regex(/^mongodb(\+srv)?:\/\/\S+$/, 'Expected a mongodb:// or mongodb+srv:// URI');
  return unsetWhenEmpty(defaultUri === undefined ? uri : uri.default(defaultUri));
}

export function envInteger(defaultValue: number, { min, max }: { min: number; max: number }) {
  const message = `Expected a whole number from ${min} to ${max}`;
  const inRange = (value: number) => value >= min && value <= max;
  return unsetWhenEmpty(wholeNumber(15, message, inRange).default(String(defaultValue)));
}

export function envInstant(defaultValue: string) {
  const message = 'Expected an ISO 8601 date-time, e.g. 2030-01-01T00:00:00Z';
  return unsetWhenEmpty(
    z
      .string()
      .datetime({ offset: true, message })
      .default(defaultValue)
      .transform((value) => new Date(value)),
  );
}

const httpUrl = z
  .string()
  .refine(
    (value) => URL.canParse(value) && /^https?:\/\//.test(value),
    'Expected an http:// or https:// URL',
  )
  .transform((value) => value.replace(/\/+$/, ''));

export function envHttpUrl(defaultUrl: string) {
  return unsetWhenEmpty(httpUrl.default(defaultUrl));
}

export function envOptionalHttpUrl() {
  return unsetWhenEmpty(httpUrl.optional());
}

export function envHttpUrls(defaultUrl: string) {
  return unsetWhenEmpty(
    z
      .string()
      .default(defaultUrl)
      .transform((value) => value.split(',').map((url) => url.trim()))
      .pipe(z.array(httpUrl).min(1)),
  );
}
