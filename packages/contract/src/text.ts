import { z } from './zod.js';

/**
 * The document's `pattern` of a text that is trimmed and may not be empty: at least one character
 * `String.prototype.trim` keeps (the whitespace it removes, listed), so that a text of spaces or
 * tabs alone, refused once trimmed, is outside the documented schema too.
 */
export const NOT_BLANK_PATTERN =
  '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/** How many Unicode code points `value` has: what JSON Schema's `minLength`/`maxLength` count. */
export function codePointLength(value: string): number {
  return [...value].length;
}

/**
 * `schema` held to `min`–`max` code points, as API.md and the document's `minLength`/`maxLength`
 * say: zod's own `min`/`max` count UTF-16 units, so one emoji would count twice. Checked after
 * what `schema` does itself (e.g. `trim()`).
 */
export function lengthInCodePoints(
  schema: z.ZodString,
  { min, max }: { min?: number; max: number },
) {
  return schema
    .superRefine((value, ctx) => {
      const length = codePointLength(value);
      if (min !== undefined && length < min) {
        ctx.addIssue({
          code: z.ZodIssueCode.too_small,
          type: 'string',
          minimum: min,
          inclusive: true,
        });
      } else if (length > max) {
        ctx.addIssue({
          code: z.ZodIssueCode.too_big,
          type: 'string',
          maximum: max,
          inclusive: true,
        });
      }
    })
    .openapi(min === undefined ? { maxLength: max } : { minLength: min, maxLength: max });
}
