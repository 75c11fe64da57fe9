import { z } from 'zod';
import { LOG_LEVELS } from './logger.js';

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
  .refine(
    (value) => URL.canParse(value) && /^https?:\/\//.test(value),
    'Expected an http:// or https:// URL',
  )
  .transform((value) => value.replace(/\/+$/, ''));

/** An http:// or https:// URL, without its trailing slashes. */
export function envHttpUrl(defaultUrl: string) {
  return unsetWhenEmpty(httpUrl.default(defaultUrl));
}

/** As `envHttpUrl`, undefined when unset. */
export function envOptionalHttpUrl() {
  return unsetWhenEmpty(httpUrl.optional());
}

/**
 * One or more http:// or https:// URLs, separated by commas: the base addresses of a service's
 * replicas (or one address in front of them), each without its trailing slashes.
 */
export function envHttpUrls(defaultUrl: string) {
  return unsetWhenEmpty(
    z
      .string()
      .default(defaultUrl)
      .transform((value) => value.split(',').map((url) => url.trim()))
      .pipe(z.array(httpUrl).min(1)),
  );
}
