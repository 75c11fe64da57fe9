import { z } from './zod.js';

/** An instant as the API returns it: ISO 8601 in UTC (`2026-12-01T10:00:00Z`). */
export const TimestampSchema = z.string().datetime().openapi({ example: '2026-01-15T09:30:00Z' });

/** An instant a client sends: ISO 8601 with `Z` or an offset; it comes back in UTC. */
export const TimestampInputSchema = z
  .string()
  .datetime({ offset: true })
  .openapi({ example: '2026-12-01T10:00:00Z' });
