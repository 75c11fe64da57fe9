import { z } from './zod.js';

/** An instant as the API returns it: ISO 8601 in UTC (`2026-12-01T10:00:00Z`). */
export const TimestampSchema = z
  .string()
  .datetime()
  .openapi({ example: '2026-01-15T09:30:00Z' });

const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An instant a client sends: ISO 8601 with `Z` or an offset; it comes back in UTC, so it must fall
 * within the years 0000–9999 there too (`0000-01-01T00:00:00+14:00` does not).
 */
export const TimestampInputSchema = z
  .string()
  .datetime({ offset: true })
  .refine((value) => {
    const at = Date.parse(value);
    return at >= FIRST_INSTANT && at <= LAST_INSTANT;
  }, 'Expected an instant within the years 0000–9999 in UTC')
  .openapi({ example: '2026-12-01T10:00:00Z' });
